// The one retry-delay function: exponential growth, the cap, and the jitter's bounds.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_BACKOFF, exponentialBackoff } from '../src/jobs/backoff.ts';

const options = { baseMs: 100, factor: 3, maxMs: 5000, jitter: 0.2 };
const middle = () => 0.5; // no jitter: random() * 2 - 1 == 0

describe('exponentialBackoff', () => {
  test('grows by the factor from the base, attempt 1 waiting the base', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((attempt) => exponentialBackoff(attempt, options, middle)),
      [100, 300, 900, 2700],
    );
  });

  test('is capped at maxMs, also for very high attempts', () => {
    assert.equal(exponentialBackoff(5, options, middle), 5000);
    assert.equal(exponentialBackoff(1000, options, middle), 5000);
  });

  test('treats attempt 0 or less as the first', () => {
    assert.equal(exponentialBackoff(0, options, middle), 100);
    assert.equal(exponentialBackoff(-3, options, middle), 100);
  });

  test('jitter stays within ±jitter of the delay and reaches both ends', () => {
    for (const attempt of [1, 2, 3, 4, 5, 50]) {
      const raw = Math.min(options.maxMs, options.baseMs * options.factor ** (attempt - 1));
      assert.equal(exponentialBackoff(attempt, options, () => 0), Math.round(raw * 0.8));
      assert.equal(exponentialBackoff(attempt, options, () => 0.999999), Math.round(raw * 1.2));
      for (let i = 0; i < 200; i++) {
        const delay = exponentialBackoff(attempt, options);
        assert.ok(delay >= Math.round(raw * 0.8) && delay <= Math.round(raw * 1.2), `attempt ${attempt}: ${delay} outside ${raw} ± 20%`);
      }
    }
  });

  test('jitter spreads delays: jobs failing together do not retry together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => exponentialBackoff(3, options)));
    assert.ok(delays.size > 25, `only ${delays.size} distinct delays out of 50`);
  });

  test('never negative, even with a jitter of 100%', () => {
    assert.equal(exponentialBackoff(1, { ...options, jitter: 1 }, () => 0), 0);
  });

  test('the default grows from a second by 4 up to an hour', () => {
    assert.equal(exponentialBackoff(1, DEFAULT_BACKOFF, middle), 1000);
    assert.equal(exponentialBackoff(2, DEFAULT_BACKOFF, middle), 4000);
    assert.equal(exponentialBackoff(30, DEFAULT_BACKOFF, middle), 3_600_000);
  });
});
