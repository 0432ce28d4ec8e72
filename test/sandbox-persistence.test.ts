// The sandbox's state kept across restarts (issue 12, point 2). First the mechanism on a
// SandboxState with a state file (round trip, fields nobody wrote code for, a bad file set
// aside, downloads cut off by the restart); then `socialapi serve` as a process on each store:
// an account connected through the real flow, a post published, the process stopped with
// SIGTERM and then with SIGKILL, and after each start the account still works, the earlier posts
// are still on the platform, and new ids are new.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SANDBOX_STATE_FILE, SandboxState } from '../src/sandbox/index.ts';
import { SANDBOX_STATE_VERSION, SAVE_DELAY_MS } from '../src/sandbox/core/persistence.ts';
import { decode, encode } from '../src/sandbox/core/snapshot.ts';
import { spawnCli, type Spawned } from './harness/cli.ts';
import { followCallback, freePort } from './harness/connect.ts';
import { createTestDatabase, DIALECTS, skipReason, type TestDatabase } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { openConsent, submitConsent } from './sandbox/helpers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sandbox state file', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const opened = (log: string[] = []) => {
    const state = new SandboxState({ seed: 'persist', stateFile: file, log: (line) => log.push(line) });
    state.openStateFile();
    return state;
  };

  test('encode/decode: Maps, Sets, bytes, bigints, undefined, shared objects and a $t key of its own', () => {
    const shared = { n: 1 };
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    const value = { m: new Map([['a', new Set([1, 2])]]), b: Buffer.from('bytes'), big: 2n ** 70n, list: [undefined, shared, shared], tagged: { $t: 'map', v: 3 }, cyclic };
    const back = decode(JSON.parse(JSON.stringify(encode(value)))) as typeof value;
    assert.deepEqual(back.m, value.m);
    assert.ok(Buffer.isBuffer(back.b) && back.b.equals(value.b));
    assert.equal(back.big, value.big);
    assert.equal(back.list[0], undefined);
    assert.equal(back.list[1], back.list[2], 'an object reached twice is still one object');
    assert.deepEqual(back.tagged, { $t: 'map', v: 3 });
    assert.equal(back.cyclic['self'], back.cyclic);
  });

  test('a state with a file: tokens, people, posts, counters, the clock and new fields come back', async () => {
    file = join(dir, 'round-trip.json');
    const first = opened();
    const user = first.addRedditUser({ name: 'kept_user' });
    const token = first.issueToken({ value: 'tok-kept', platform: 'reddit', type: 'user', clientId: 'c', subjectId: user.id, userId: user.id, scopes: ['submit'], declined: [], pageIds: [], ttlSeconds: 3600, longLived: false });
    first.clock.advance(90_000);
    first.meta.privateReplies.add('c_1');
    first.meta.subscribedApps.set('page', new Map([['app', ['feed']]]));
    first.whatsapp.media.set('m1', { id: 'm1', phoneNumberId: 'p', mimeType: 'image/png', sha256: 'x', bytes: Buffer.from([1, 2, 3]), filename: null, createdAt: 1, deleted: false });
    // A field someone adds to a store later: kept without a line of persistence code.
    Object.assign(first.reddit, { recent: new Map([['kept_user', ['t3_1']]]) });
    const before = parseInt(first.ids.base36('reddit-thing'), 36);
    first.changed();
    await first.close();
    assert.ok(existsSync(file));
    assert.equal((JSON.parse(readFileSync(file, 'utf8')) as { version: number }).version, SANDBOX_STATE_VERSION);

    const second = opened();
    assert.deepEqual(second.token('tok-kept'), token);
    assert.equal([...second.people.redditUsers.values()].find((u) => u.name === 'kept_user')?.id, user.id);
    assert.ok(second.clock.offset() >= 90_000, 'the sandbox clock goes on from where it was');
    assert.ok(second.meta.privateReplies.has('c_1'));
    assert.deepEqual(second.meta.subscribedApps.get('page')?.get('app'), ['feed']);
    assert.deepEqual([...(second.whatsapp.media.get('m1')?.bytes ?? [])], [1, 2, 3]);
    assert.deepEqual((second.reddit as unknown as { recent: Map<string, string[]> }).recent.get('kept_user'), ['t3_1']);
    assert.equal(parseInt(second.ids.base36('reddit-thing'), 36), before + 1, 'ids go on from the saved counters');
    const fresh = second.addRedditUser();
    assert.equal([...second.people.redditUsers.values()].filter((u) => u.id === fresh.id).length, 1);
    assert.notEqual(fresh.id, user.id);
    await second.close();
  });

  test('changes are saved shortly after they happen, without a close', async () => {
    file = join(dir, 'soon.json');
    const state = opened();
    state.issueToken({ value: 'tok-soon', platform: 'reddit', type: 'user', clientId: 'c', subjectId: 's', userId: 's', scopes: [], declined: [], pageIds: [], ttlSeconds: null, longLived: true });
    state.changed();
    await waitFor(() => existsSync(file) && readFileSync(file, 'utf8').includes('tok-soon'), SAVE_DELAY_MS + 2000, 'the save');
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left');
    await state.close();
  });

  test('a write a crash cut off is never read: the last complete file is, and the leftover is removed', async () => {
    file = join(dir, 'crash.json');
    const first = opened();
    first.issueToken({ value: 'tok-complete', platform: 'reddit', type: 'user', clientId: 'c', subjectId: 's', userId: 's', scopes: [], declined: [], pageIds: [], ttlSeconds: null, longLived: true });
    first.changed();
    await first.close();
    writeFileSync(`${file}.4242.7.tmp`, '{"version": 1, "clockOffsetMs": 0, "state": {"tok'); // a write cut off half-way
    const log: string[] = [];
    const second = opened(log);
    assert.deepEqual(log, []);
    assert.ok(second.token('tok-complete'));
    assert.ok(!existsSync(`${file}.4242.7.tmp`));
    await second.close();
  });

  test('a file that does not parse, or has another version, is set aside and the sandbox starts fresh', async () => {
    for (const [name, text] of [['garbage.json', '{"version": 1, "clockOffsetMs": 0, "state": {"tok'], ['old.json', JSON.stringify({ version: 0, clockOffsetMs: 0, state: {} })]] as const) {
      file = join(dir, name);
      writeFileSync(file, text);
      const log: string[] = [];
      const state = opened(log);
      assert.equal(log.length, 1, log.join('\n'));
      assert.match(log[0] ?? '', /set aside as .*unreadable-/);
      assert.ok(!existsSync(file));
      assert.equal(readdirSync(dir).filter((f) => f.startsWith(`${name}.unreadable-`)).length, 1);
      assert.ok(state.people.subreddit('sandbox'), 'the default seed is there');
      await state.close();
    }
  });

  test('a file whose fields no longer fit the code is set aside too', async () => {
    file = join(dir, 'misfit.json');
    writeFileSync(file, JSON.stringify({ version: SANDBOX_STATE_VERSION, clockOffsetMs: 0, state: { tokens: [1, 2] } }));
    const log: string[] = [];
    const state = opened(log);
    assert.match(log[0] ?? '', /tokens/);
    assert.ok(state.tokens instanceof Map);
    await state.close();
  });

  test('a download the restart cut off ends failed instead of in progress for ever', async () => {
    file = join(dir, 'interrupted.json');
    const first = opened();
    const user = [...first.people.threadsUsers.values()][0];
    assert.ok(user);
    first.threads.containers.set('c1', {
      id: 'c1', userId: user.id, mediaType: 'VIDEO', text: null, imageUrl: null, videoUrl: 'https://x/v.mp4', isCarouselItem: false, children: [], replyToId: null,
      quotePostId: null, replyControl: null, topicTag: null, linkAttachment: null, altText: null, createdAt: first.clock.now(), readyAt: first.clock.now(), download: 'pending', errorMessage: null, publishedId: null,
    });
    first.changed();
    await first.close();
    const second = opened();
    assert.equal(second.threads.containers.get('c1')?.download, 'failed');
    assert.equal(second.threads.containers.get('c1')?.errorMessage, 'FAILED_DOWNLOADING_VIDEO');
    await second.close();
  });

  test('without a state file nothing is written', async () => {
    const state = new SandboxState({ seed: 'memory' });
    state.openStateFile();
    state.changed();
    await state.close();
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('memory')), []);
  });
});

interface Server {
  process: Spawned;
  url: string;
}

for (const dialect of DIALECTS) {
  describe(`serve keeps its sandbox across restarts [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let database: TestDatabase;
    let env: Record<string, string>;
    let server: Server | null = null;
    let key = '';

    before(async () => {
      database = await createTestDatabase(dialect);
      const port = await freePort();
      env = { DATABASE_URL: database.url, DATA_DIR: database.dataDir, PORT: String(port), SANDBOX: '1', LOG_LEVEL: 'warn', JOB_POLL_INTERVAL_MS: '50', RATE_LIMIT_PER_MINUTE: '100000' };
    });
    after(async () => {
      await server?.process.stop('SIGKILL');
      await database.drop();
    });

    async function start(): Promise<Server> {
      const child = spawnCli(['serve'], env);
      const [, url = ''] = await child.waitFor(/listening on (http:\/\/\S+)/, 30_000);
      await child.waitFor(/API document/);
      key ||= /^\s+(sk_[0-9A-Za-z]{43})$/m.exec(child.output())?.[1] ?? '';
      assert.ok(key, child.output());
      return { process: child, url };
    }

    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${server?.url ?? ''}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });

    async function publish(accountId: string, title: string): Promise<string> {
      const created = await api('/api/v1/posts', { method: 'POST', body: JSON.stringify({ content: `${title}: body`, publishNow: true, platforms: [{ accountId, platformSpecificData: { subreddit: 'sandbox', title } }] }) });
      assert.equal(created.status, 201, await created.clone().text());
      const { post } = (await created.json()) as { post: { id: string } };
      const done = await waitFor(async () => {
        const res = await api(`/api/v1/posts/${post.id}`);
        const body = (await res.json()) as { post: { status: string; targets: Array<{ platformPostId: string | null; error?: unknown }> } };
        return ['published', 'failed', 'partial'].includes(body.post.status) ? body.post : null;
      }, 20_000, `post ${post.id} to settle`);
      assert.equal(done.status, 'published', JSON.stringify(done));
      const id = done.targets[0]?.platformPostId ?? '';
      assert.match(id, /^t3_\w+$/);
      return id;
    }

    /** A token of our own from the sandbox's reddit, to look at its posts as any client would. */
    async function redditToken(): Promise<string> {
      const redirect = 'https://client.example/cb';
      const query = new URLSearchParams({ client_id: 'persist-test', response_type: 'code', state: 's', redirect_uri: redirect, duration: 'permanent', scope: 'identity read' });
      const back = await submitConsent(await openConsent(`${server?.url ?? ''}/sandbox/www.reddit.com/api/v1/authorize?${query.toString()}`));
      const code = back.searchParams.get('code') ?? '';
      const res = await fetch(`${server?.url ?? ''}/sandbox/www.reddit.com/api/v1/access_token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from('persist-test:secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirect }).toString(),
      });
      const token = ((await res.json()) as { access_token?: string }).access_token;
      assert.ok(token);
      return token;
    }

    /** The fullnames (t3_…) reddit still has, of those asked. */
    async function onReddit(token: string, ids: string[]): Promise<string[]> {
      const res = await fetch(`${server?.url ?? ''}/sandbox/oauth.reddit.com/api/info?id=${ids.join(',')}`, { headers: { authorization: `bearer ${token}`, 'user-agent': 'test:socialapi.persistence:1.0 (by /u/sandbox_user)' } });
      assert.equal(res.status, 200, await res.clone().text());
      const body = (await res.json()) as { data: { children: Array<{ data: { name: string } }> } };
      return body.data.children.map((c) => c.data.name).sort();
    }

    async function stillWorks(accountId: string): Promise<void> {
      const account = (await (await api(`/api/v1/accounts/${accountId}`)).json()) as { account: { status: string } };
      assert.equal(account.account.status, 'active');
      const res = await api(`/api/v1/accounts/${accountId}/health?refresh=1`);
      assert.equal(res.status, 200);
      const { health } = (await res.json()) as { health: { status: string; token: { valid: boolean | null } } };
      assert.equal(health.status, 'active', JSON.stringify(health));
      assert.equal(health.token.valid, true, JSON.stringify(health));
    }

    test('a connected reddit account, its posts and the id counters survive SIGTERM and SIGKILL', async () => {
      server = await start();
      const start1 = await api('/api/v1/connect/reddit?redirectUrl=https://client.example/connected');
      assert.equal(start1.status, 200);
      const { authUrl } = (await start1.json()) as { authUrl: string };
      const { location } = await followCallback(await submitConsent(await openConsent(authUrl)));
      const accountId = location?.searchParams.get('accountId') ?? '';
      assert.match(accountId, /^acc_/, String(location));
      const first = await publish(accountId, 'Before the restarts');
      const token = await redditToken();

      // A graceful stop: everything is saved at close.
      assert.equal(await server.process.stop('SIGTERM'), 0, server.process.output());
      assert.ok(existsSync(join(database.dataDir, SANDBOX_STATE_FILE)));
      server = await start();
      await stillWorks(accountId);
      assert.deepEqual(await onReddit(token, [first]), [first], 'the post published before the restart is still there');
      const second = await publish(accountId, 'After a SIGTERM');
      assert.notEqual(second, first);

      // A hard stop a little after the last change: the debounced save has been made.
      await sleep(SAVE_DELAY_MS + 500);
      server.process.child.kill('SIGKILL');
      await server.process.stop();
      server = await start();
      await stillWorks(accountId);
      assert.deepEqual(await onReddit(token, [first, second]), [first, second].sort());
      const third = await publish(accountId, 'After a SIGKILL');
      assert.equal(new Set([first, second, third]).size, 3, 'no id handed out twice');
      assert.deepEqual(await onReddit(token, [first, second, third]), [first, second, third].sort());
      const log = server.process.output();
      assert.doesNotMatch(log, /could not be restored|cannot save/, log);
      await server.process.stop('SIGTERM');
      server = null;
    });
  });
}
