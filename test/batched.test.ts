// The group-commit helper behind batched dispatches, starts and job deletes (db/batched.ts): a lone call
// goes at once, calls that arrive while a run is under way share the next run (at most `max`
// each), a failed run fails only the calls it carried, and idle() waits for what is under way.
// No store: the runs are recorded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { batched } from '../src/db/batched.ts';

function recorder(max: number, fail: (items: number[]) => boolean = () => false) {
  const runs: number[][] = [];
  let release = () => {};
  const call = batched(async (items: number[]) => {
    runs.push(items);
    await new Promise<void>((resolve) => (release = resolve));
    if (fail(items)) throw new Error(`run ${runs.length} failed`);
    return items.map((n) => n * 10);
  }, max);
  return { runs, call, release: () => release() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('a lone call runs at once; calls made while it runs share the next run, in order, each answered its own', async () => {
  const r = recorder(10);
  const first = r.call(1);
  await tick();
  assert.deepEqual(r.runs, [[1]]);
  const later = [r.call(2), r.call(3), r.call(4)];
  await tick();
  assert.deepEqual(r.runs, [[1]], 'nothing more until the first run ends');
  r.release();
  assert.equal(await first, 10);
  await tick();
  assert.deepEqual(r.runs, [[1], [2, 3, 4]]);
  r.release();
  assert.deepEqual(await Promise.all(later), [20, 30, 40]);
});

test('a run carries at most max calls; the rest go in the runs after it', async () => {
  const r = recorder(2);
  const all = [r.call(1), r.call(2), r.call(3), r.call(4), r.call(5)];
  for (let i = 0; i < 5; i++) {
    await tick();
    r.release();
  }
  assert.deepEqual(await Promise.all(all), [10, 20, 30, 40, 50]);
  assert.deepEqual(r.runs, [[1], [2, 3], [4, 5]]);
});

test('a failed run fails the calls it carried and no others', async () => {
  const r = recorder(10, (items) => items.includes(2));
  const first = r.call(1);
  await tick();
  const second = [r.call(2), r.call(3)];
  r.release();
  assert.equal(await first, 10);
  await tick();
  const third = r.call(4);
  r.release();
  await assert.rejects(second[0] ?? Promise.resolve(), /run 2 failed/);
  await assert.rejects(second[1] ?? Promise.resolve(), /run 2 failed/);
  await tick();
  r.release();
  assert.equal(await third, 40);
});

test('idle() resolves at once with nothing under way, else once every waiting call has run', async () => {
  const r = recorder(1);
  await r.call.idle();
  const calls = [r.call(1), r.call(2)];
  let idle = false;
  const waited = r.call.idle().then(() => (idle = true));
  await tick();
  r.release();
  await calls[0];
  await tick();
  assert.equal(idle, false, 'the second call is still on its way');
  r.release();
  await waited;
  assert.deepEqual(await Promise.all(calls), [10, 20]);
});
