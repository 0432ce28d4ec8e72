// docs/guides/sdk.md compiles as written: each TypeScript block is type-checked (tsc, strict)
// against packages/client, with `@socialapi/client` resolved to it as the workspace does; and the
// guide's misspelt option really is a compile error.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ROOT } from './harness/cli.ts';

const GUIDE = readFileSync(join(ROOT, 'docs/guides/sdk.md'), 'utf8');
const BLOCKS = [...GUIDE.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const dir = mkdtempSync(join(tmpdir(), 'sdk-guide-'));

function typeCheck(files: Record<string, string>): { ok: boolean; output: string } {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2024', lib: ['es2024'], module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true,
        allowImportingTsExtensions: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')],
        paths: { '@socialapi/client': [join(ROOT, 'packages/client/src/index.ts')] },
      },
      files: Object.keys(files),
    }),
  );
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const TOUR = [...README.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => (m[1] ?? '').replace(/^ {3}/gm, ''));

describe('docs/guides/sdk.md', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('its TypeScript blocks compile against the SDK', () => {
    assert.equal(BLOCKS.length, 2);
    const result = typeCheck(Object.fromEntries(BLOCKS.map((block, i) => [`block${i}.ts`, block])));
    assert.ok(result.ok, result.output);
  });

  test('the README tour\'s SDK step compiles as written, and its misspelt option would not', () => {
    assert.equal(TOUR.length, 1);
    const [tour = ''] = TOUR;
    assert.ok(typeCheck({ 'tour.ts': tour }).ok, typeCheck({ 'tour.ts': tour }).output);
    assert.equal(typeCheck({ 'tour-misspelt.ts': tour.replace('subreddit:', 'subredit:') }).ok, false);
  });

  test('the misspelt option it warns about does not', () => {
    const first = BLOCKS[0] ?? '';
    assert.match(first, /subreddit: 'typescript'/);
    const result = typeCheck({ 'misspelt.ts': first.replace("subreddit: 'typescript'", "subredit: 'typescript'") });
    assert.equal(result.ok, false);
    assert.match(result.output, /subredit/);
  });
});
