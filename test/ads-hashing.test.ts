// Audience members never leave the process raw (issue 18): the normalising and hashing rules of
// platforms.md §9.5, the bad value named by position only, and the logger's redaction of
// `emails` and `phones` should a body ever be logged.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { ApiError } from '../src/http/errors.ts';
import { createLogger } from '../src/http/logging.ts';
import { hashAll, normaliseEmail, normalisePhone } from '../src/modules/ads/hashing.ts';
import { checkAmount, currencyOffset, fromMinor, toMinor } from '../src/modules/ads/money.ts';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('audience hashing', () => {
  test('emails: trimmed and lower-cased; phones: digits with the country code, no leading 00', () => {
    assert.equal(normaliseEmail('  Dana.W@Example.COM '), 'dana.w@example.com');
    assert.equal(normaliseEmail('no-at-sign'), null);
    assert.equal(normalisePhone('+1 (555) 010-9999'), '15550109999');
    assert.equal(normalisePhone('0044 20 7946 0000'), '442079460000');
    assert.equal(normalisePhone('12'), null);
  });

  test('hashes are SHA-256 hex of the normalised value, de-duplicated; a bad value is named by position only', () => {
    assert.deepEqual(hashAll(['A@b.co', 'a@B.co ', 'c@d.io'], 'emails'), [sha('a@b.co'), sha('c@d.io')]);
    assert.throws(() => hashAll(['a@b.co', 'secret text'], 'emails'), (error: unknown) => error instanceof ApiError && error.status === 400 && error.message === 'emails[1]: not an email address');
  });

  test('the logger masks emails and phones fields', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    createLogger('info', sink).info({ body: { emails: ['dana@example.com'], phones: ['+15550109999'] } }, 'request body');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines.length, 1);
    assert.ok(!lines[0]?.includes('dana@example.com') && !lines[0]?.includes('15550109999'), lines[0]);
  });
});

describe('money', () => {
  test("decimals to minor units by the currency's offset", () => {
    assert.equal(currencyOffset('USD'), 100);
    assert.equal(currencyOffset('JPY'), 1);
    assert.equal(toMinor(12.5, 'USD', 'budget.amount'), 1250);
    assert.equal(toMinor(20.05, 'EUR', 'budget.amount'), 2005);
    assert.equal(toMinor(1500, 'KRW', 'budget.amount'), 1500);
    assert.throws(() => toMinor(1500.5, 'JPY', 'budget.amount'), /budget.amount: JPY has no minor units/);
    assert.throws(() => checkAmount(1.234, 'dailyBudget'), /dailyBudget: at most two decimals/);
    assert.equal(fromMinor(2005, 'USD'), 20.05);
    assert.equal(fromMinor(null, 'USD'), null);
  });
});
