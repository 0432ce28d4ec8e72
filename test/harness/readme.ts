// The runnable examples of the README and the guides (docs/guides/*.md): shell blocks marked
// `<!-- readme-example: NAME -->`, run as a newcomer would, with bash and curl.
import { readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { ROOT, runToEnd, type CliResult } from './cli.ts';

/** README.md and every guide, as paths from the repository's root. */
export function exampleFiles(): string[] {
  const guides = readdirSync(join(ROOT, 'docs/guides')).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...guides.map((name) => `docs/guides/${name}`)];
}

/** A Markdown file of the repository (`README.md`, `docs/guides/webhooks.md`). */
export function readDoc(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** The marked blocks of one file, without the indentation of their list item. */
export function examplesIn(path: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of readDoc(path).matchAll(/^( *)<!-- readme-example: (\w+) -->\n\1```sh\n([\s\S]*?)^\1```$/gm)) {
    const [, indent = '', name = '', body = ''] = match;
    blocks.set(name, body.split('\n').map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n'));
  }
  return blocks;
}

/** The marked blocks of the README and every guide; a name marked twice is an error. */
export function readmeExamples(): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const path of exampleFiles()) {
    for (const [name, body] of examplesIn(path)) {
      if (blocks.has(name)) throw new Error(`the example ${name} is marked twice (again in ${path})`);
      blocks.set(name, body);
    }
  }
  return blocks;
}

export function bash(script: string, env: Record<string, string>): Promise<CliResult> {
  // The Node running the tests first on PATH, for the examples' `node -p`.
  const path = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;
  return runToEnd('bash', ['-c', script], { ...process.env, ...env, PATH: path });
}
