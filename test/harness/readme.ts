// The README's runnable examples: shell blocks marked `<!-- readme-example: NAME -->`, run as a
// newcomer would, with bash and curl.
import { readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { ROOT, runToEnd, type CliResult } from './cli.ts';

/** The marked blocks, without the indentation of their list item. */
export function readmeExamples(): Map<string, string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = new Map<string, string>();
  for (const match of readme.matchAll(/^( *)<!-- readme-example: (\w+) -->\n\1```sh\n([\s\S]*?)^\1```$/gm)) {
    const [, indent = '', name = '', body = ''] = match;
    blocks.set(name, body.split('\n').map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n'));
  }
  return blocks;
}

export function bash(script: string, env: Record<string, string>): Promise<CliResult> {
  // The Node running the tests first on PATH, for the README's `node -p`.
  const path = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;
  return runToEnd('bash', ['-c', script], { ...process.env, ...env, PATH: path });
}
