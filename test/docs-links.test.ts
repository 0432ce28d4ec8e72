// The docs name only what exists: in README.md and every Markdown file under docs/, a relative
// link must lead to a file or folder of the repository, and a source path named in the text
// (src/…, test/…, bench/…, scripts/…, docs/…) must exist. A path written with a placeholder
// (`src/platforms/<name>/`, `test/*readme*`) is a pattern, not a path, and so is a path inside a
// git revision (`HEAD~1:docs/old.md`): neither is checked.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { ROOT } from './harness/cli.ts';

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const FILES = ['README.md', ...markdownUnder('docs')];

/** Relative link targets of a Markdown text: `[text](target)`, without the #fragment. */
export function relativeLinks(text: string): string[] {
  const targets = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
  return targets.filter((target) => !/^([a-z][a-z0-9+.-]*:|#)/i.test(target)).map((target) => decodeURI(target.replace(/#.*$/, '')));
}

/** Repository paths named in a Markdown text, leaving out patterns (a placeholder right after). */
export function namedPaths(text: string): string[] {
  const paths: string[] = [];
  for (const match of text.matchAll(/(?<![\w./:$-])((?:src|test|bench|scripts|docs)\/[\w./-]*[\w/])(.?)/g)) {
    const [, path = '', next = ''] = match;
    if (/[<{*…[]/.test(next)) continue;
    paths.push(path);
  }
  return paths;
}

test('the link and path readers see what they should', () => {
  assert.deepEqual(relativeLinks('[a](docs/x.md#part) [b](https://example.com/y) [c](#here) [d](../e.md "title")'), ['docs/x.md', '../e.md']);
  assert.deepEqual(namedPaths('see `src/app.ts`, src/modules/<area>/, `test/*readme*`, https://host/docs/page, `git show abc:docs/gone.md` and bench/RESULTS.md.'), ['src/app.ts', 'bench/RESULTS.md']);
});

test('README.md and docs/**/*.md name no missing file', () => {
  const missing: string[] = [];
  for (const file of FILES) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const target of relativeLinks(text)) {
      const path = relative(ROOT, join(ROOT, dirname(file), target));
      if (!existsSync(join(ROOT, path))) missing.push(`${file}: link ${target}`);
    }
    for (const path of namedPaths(text)) {
      if (!existsSync(join(ROOT, path))) missing.push(`${file}: ${path}`);
    }
  }
  assert.deepEqual(missing, []);
});
