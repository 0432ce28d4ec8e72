// "WhatsApp (sandbox)" in README.md, as a newcomer runs it: the sandbox's number connected through
// the embedded signup page and the consent page, then the README's block as it is: the number
// registered and read, a template created and approved, our photo put on WhatsApp, its info and
// its bytes read back. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SandboxState } from '../src/sandbox/index.ts';
import type { TestApp } from './harness/app.ts';
import { CLIENT_REDIRECT, followCallback, startConnectApp } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { bash, readmeExamples } from './harness/readme.ts';
import { openConsent, submitConsent } from './sandbox/helpers.ts';

for (const dialect of DIALECTS) {
  describe(`README whatsapp [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp & { sandbox: SandboxState };
    let key: string;
    let whatsapp: string;
    before(async () => {
      t = await startConnectApp(dialect, { env: { LOG_LEVEL: 'silent' } });
      ({ key } = await t.tenant());
      // As the README says: the authUrl is the signup page, whose link leads to the consent page.
      const start = (await (await t.request(`/api/v1/connect/whatsapp?redirectUrl=${encodeURIComponent(CLIENT_REDIRECT)}`, { key })).json()) as { authUrl: string };
      const page = await (await fetch(start.authUrl)).text();
      const href = /id="signup" href="([^"]+)"/.exec(page)?.[1]?.replace(/&#38;/g, '&') ?? '';
      const { location } = await followCallback(await submitConsent(await openConsent(href)));
      whatsapp = location?.searchParams.get('accountId') ?? '';
      assert.ok(whatsapp, 'whatsapp connected');
    });
    after(() => t.close());

    test('the block registers the number, gets a template approved and puts a photo on WhatsApp and back', async () => {
      const block = readmeExamples().get('whatsapp') ?? '';
      assert.ok(block, 'the README marks a whatsapp block');
      const run = await bash(['set -euo pipefail', block].join('\n'), { BASE: t.url, KEY: key, WHATSAPP: whatsapp });
      assert.equal(run.code, 0, `the README's whatsapp block failed:\n${run.stderr}\n${run.stdout}`);
      const lines = run.stdout.trim().split('\n').filter((line) => line.trim() !== '');
      assert.equal(lines.length, 5, run.stdout);
      const [registered, number, template, media] = lines.slice(0, 4).map((line) => JSON.parse(line) as Record<string, Record<string, unknown>>);
      assert.deepEqual(registered, { ok: true });
      assert.equal((number?.phoneNumber?.onboarding as { registered: boolean }).registered, true);
      assert.deepEqual([template?.template?.name, template?.template?.status], ['order_ready', 'APPROVED']);
      const size = Number(lines[4]?.trim());
      assert.equal(media?.media?.fileSize, size);
      assert.equal(media?.media?.mimeType, 'image/jpeg');
      const stored = t.sandbox.whatsapp.media.get(String(media?.media?.whatsappMediaId));
      assert.equal(stored?.bytes.length, size);
      const phone = [...t.sandbox.whatsapp.phoneNumbers.values()][0];
      assert.deepEqual([phone?.registered, phone?.pin], [true, '123456']);
    });
  });
}
