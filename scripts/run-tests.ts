// `npm test` (after typecheck and lint): every test file under test/ with Node's test runner.
// Files run two at a time; each suite has its own database, so they do not collide. A file's
// process ends once its tests are done (--test-force-exit): a handle a failed test left open
// must not hang the whole run.
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const files = globSync('test/**/*.test.ts').sort();
const filter = process.argv.slice(2);
const selected = filter.length ? files.filter((f) => filter.some((part) => f.includes(part))) : files;
// Every test file is a process that loads most of the sources: Node's compile cache (keyed by
// content) keeps their stripped and compiled form for the next one.
const env = { ...process.env, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'socialapi-test-compile-cache') };
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-force-exit', '--test-reporter=spec', ...selected], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
