// Media that no post references for 30 days is removed by media.cleanup, bytes and row; media a
// post uses (attachMediaToPost, for the posts service) is kept. The clock is moved by hand.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildJobRegistry } from '../src/composition.ts';
import { createLogger } from '../src/http/logging.ts';
import { MEDIA_RETENTION_MS } from '../src/modules/media/cleanup-job.ts';
import { attachMediaToPost, releaseMediaOfPost } from '../src/modules/media/service.ts';
import { newId } from '../src/lib/ids.ts';
import { startApp, type TestApp } from './harness/app.ts';
import { ManualClock } from './harness/clock.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { startS3, type TestS3 } from './harness/s3.ts';
import { png } from './fixtures/media.ts';

const DAY = 86_400_000;

interface Media {
  id: string;
  postId: string | null;
  publicUrl: string;
}

for (const dialect of DIALECTS) {
  for (const storage of ['local', 's3'] as const) {
    describe(`media cleanup [${dialect}, ${storage}]`, { skip: skipReason(dialect) }, () => {
      let t: TestApp;
      let s3: TestS3 | null = null;
      let key: string;
      let organizationId: string;
      const clock = new ManualClock();

      before(async () => {
        if (storage === 's3') s3 = await startS3();
        t = await startApp(dialect, { clock, env: { PUBLIC_BASE_URL: 'https://media.example.com', ...(s3?.env ?? {}) } });
        ({ key, organizationId } = await t.tenant());
      });
      after(async () => {
        await t.close();
        await s3?.close();
      });

      const upload = async (): Promise<Media> => {
        const data = new FormData();
        data.append('file', new Blob([png()]), 'keep-or-not.png');
        const res = await t.request('/api/v1/media', { key, method: 'POST', body: data });
        assert.equal(res.status, 201);
        return ((await res.json()) as { media: Media }).media;
      };
      const get = async (id: string) => {
        const res = await t.request(`/api/v1/media/${id}`, { key });
        return res.status === 200 ? ((await res.json()) as { media: Media }).media : null;
      };
      const objectExists = async (media: Media) => {
        const name = media.publicUrl.split('/').pop() ?? '';
        return s3 ? (await s3.keys()).includes(name) : existsSync(join(t.config.dataDir, 'media', name));
      };
      const runCleanup = async () => {
        const job = buildJobRegistry(t.runtime.deps).get('media.cleanup');
        assert.ok(job, 'media.cleanup is registered');
        await job.definition.run({}, { jobId: 'test', attempt: 1, maxAttempts: 5, signal: new AbortController().signal, db: t.runtime.deps.store.db, log: createLogger('silent'), completeIn: () => Promise.resolve() });
      };

      test('an upload schedules one sweep for the day its media falls due', async () => {
        const start = clock.now();
        await upload();
        await upload();
        const jobs = await t.runtime.deps.store.db.selectFrom('jobs').selectAll().where('kind', '=', 'media.cleanup').execute();
        assert.equal(jobs.length, 1, 'one job per day, however many uploads');
        const [job] = jobs;
        assert.ok(job);
        assert.ok(job.run_at >= start + MEDIA_RETENTION_MS && job.run_at <= start + MEDIA_RETENTION_MS + DAY);
        assert.equal(job.run_at % DAY, 0, 'at a UTC midnight');
        assert.equal(job.dedupe_key, `media.cleanup:${new Date(job.run_at).toISOString().slice(0, 10)}`);
      });

      test('unreferenced media goes after 30 days; media a post uses stays; a released post starts the 30 days again', async () => {
        const unused = await upload();
        const used = await upload();
        const released = await upload();
        const postA = newId('post');
        const postB = newId('post');
        const { db } = t.runtime.deps.store;

        const attached = await attachMediaToPost(db, t.config, organizationId, postA, [used.publicUrl, 'https://elsewhere.example/x.png', `${used.publicUrl}?x=1`]);
        assert.deepEqual(attached, [used.id]);
        assert.deepEqual(await attachMediaToPost(db, t.config, organizationId, postB, [released.publicUrl]), [released.id]);
        assert.equal((await get(used.id))?.postId, postA);
        const other = await t.tenant();
        assert.deepEqual(await attachMediaToPost(db, t.config, other.organizationId, newId('post'), [used.publicUrl]), [], "another organization's post cannot claim it");

        clock.advance(10 * DAY);
        assert.equal(await releaseMediaOfPost(db, t.runtime.deps.store, organizationId, postB, clock.now()), 1);
        assert.equal((await get(released.id))?.postId, null);

        clock.advance(21 * DAY);
        const stale = join(t.config.dataDir, 'media', '.partial');
        mkdirSync(stale, { recursive: true });
        writeFileSync(join(stale, 'old.png.abc'), 'x');
        utimesSync(join(stale, 'old.png.abc'), new Date(clock.now() - 2 * DAY), new Date(clock.now() - 2 * DAY));
        writeFileSync(join(stale, 'running.png.def'), 'x');
        utimesSync(join(stale, 'running.png.def'), new Date(clock.now()), new Date(clock.now()));

        await runCleanup();
        assert.equal(await get(unused.id), null, 'unused for 31 days: removed');
        assert.equal(await objectExists(unused), false);
        assert.equal((await get(used.id))?.postId, postA, 'in use: kept');
        assert.equal(await objectExists(used), true);
        assert.ok(await get(released.id), 'released 21 days ago: kept for now');
        assert.equal(await objectExists(released), true);
        assert.equal(existsSync(join(stale, 'old.png.abc')), false, 'a crashed upload is swept');
        assert.equal(existsSync(join(stale, 'running.png.def')), true, 'an upload in progress is not');

        clock.advance(10 * DAY);
        await runCleanup();
        assert.equal(await get(released.id), null);
        assert.equal(await objectExists(released), false);
        assert.ok(await get(used.id));
      });
    });
  }
}
