// `npm test` (after typecheck and lint): every test file under test/ with Node's test runner.
// Files run two at a time; each suite has its own database, so they do not collide. A file's
// process ends once its tests are done (--test-force-exit): a handle a failed test left open
// must not hang the whole run.
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';

const files = globSync('test/**/*.test.ts').sort();
const filter = process.argv.slice(2);
const selected = filter.length ? files.filter((f) => filter.some((part) => f.includes(part))) : files;
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-force-exit', '--test-reporter=spec', ...selected], { stdio: 'inherit' });
process.exit(result.status ?? 1);
