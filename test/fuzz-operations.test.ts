// A fuzzing pass over every operation of the served OpenAPI document, on both stores, with a
// valid key: hostile path parameters, query values and names, header values, body fields (each
// field of a sample body replaced in turn), whole bodies and content types, platformSpecificData
// keys for every platform, and multipart uploads. Every answer must be below 500, and every
// answer that is not a success must have exactly the error shape and must not carry the hostile
// input back. The lists are fixed and the one random choice is seeded, so a run is repeatable.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../src/lib/ids.ts';
import type { TestApp } from './harness/app.ts';
import { startConnectApp } from './harness/connect.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { FileServer } from './harness/file-server.ts';
import {
  CONTENT_TYPES,
  fieldPaths,
  JSON_VALUES,
  OPTION_VALUES,
  QUERY_NAMES,
  RAW_BODIES,
  sample,
  seeded,
  URL_VALUES,
  withField,
  type Hostile,
  type Schema,
  type SchemaContext,
} from './harness/hostile.ts';

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  schema?: Schema;
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

interface Attempt {
  label: string;
  method: string;
  /** After /api/v1, percent-encoded as sent. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  markers: string[];
  /** A public page for a browser or a platform's handshake, which may answer HTML or text. */
  page?: boolean;
}

const PLATFORMS = ['reddit', 'instagram', 'facebook', 'threads', 'tiktok', 'whatsapp'] as const;

/** A 1×1 GIF. */
const GIF = Buffer.from('47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex');

/** Options that make a live post valid, so that the one hostile key is what gets judged. */
const BASE_OPTIONS: Record<(typeof PLATFORMS)[number], Record<string, unknown>> = {
  reddit: { subreddit: 'test', title: 'Fuzz' },
  instagram: { mediaUrl: 'https://127.0.0.1/a.jpg' },
  facebook: {},
  threads: {},
  tiktok: { privacyLevel: 'SELF_ONLY', mediaUrl: 'https://127.0.0.1/v.mp4' },
  whatsapp: {},
};

// The keys the platform validators read (src/modules/posts/validate/), and some they do not.
const OPTION_KEYS = [
  'title', 'subreddit', 'flairId', 'kind', 'url', 'link', 'linkAttachment', 'mediaUrl', 'mediaUrls', 'mediaType',
  'contentType', 'coverUrl', 'thumbOffset', 'altText', 'altTexts', 'collaborators', 'userTags', 'locationId',
  'shareToFeed', 'trialParams', 'audioName', 'firstComment', 'draft', 'privacyLevel', 'photoCoverIndex',
  'videoCoverTimestampMs', 'commentsEnabled', 'topicTag', 'replyControl', 'threadItems', 'brandContent',
  'unknownKey', '__proto__', 'constructor',
];

/**
 * Why `response` breaks the rules, or null. Pages for a person's browser (the public OAuth
 * callback and signup page answer HTML by design) and Meta's verification handshake (plain text,
 * as Meta's documentation has it) are held to no 5xx and no echo only.
 */
async function judge(attempt: Attempt, response: Response): Promise<string | null> {
  const text = await response.text();
  const what = `${attempt.label} → ${response.status} ${text.slice(0, 160)}`;
  if (response.status >= 500) return what;
  if (response.status < 400) return null;
  if (attempt.page && /^text\/(html|plain)/.test(response.headers.get('content-type') ?? '')) {
    return attempt.markers.some((m) => text.includes(m)) ? `${what} (echoes the input)` : null;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${what} (not JSON)`;
  }
  const error = typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined;
  const shaped =
    Object.keys(body as object).length === 1 &&
    typeof error === 'object' &&
    error !== null &&
    'message' in error &&
    typeof error.message === 'string' &&
    Object.keys(error).every((k) => k === 'message' || (k === 'code' && 'code' in error && typeof error.code === 'string'));
  if (!shaped) return `${what} (not the error shape)`;
  for (const marker of attempt.markers) {
    if (text.includes(marker) || text.includes(JSON.stringify(marker).slice(1, -1))) return `${what} (echoes ${JSON.stringify(marker.slice(0, 20))})`;
  }
  return null;
}

for (const dialect of DIALECTS) {
  describe(`fuzzing every operation [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: TestApp;
    let key: string;
    let doc: Doc;
    let context: SchemaContext;
    const accounts: Record<string, string> = {};
    let postId = '';
    let webhookId = '';
    let mediaId = '';

    before(async () => {
      t = await startConnectApp(dialect);
      const tenant = await t.tenant();
      key = tenant.key;
      const now = Date.now();
      for (const platform of PLATFORMS) {
        accounts[platform] = newId('account');
        await t.runtime.deps.store.db
          .insertInto('accounts')
          .values({ id: accounts[platform], organization_id: tenant.organizationId, platform, platform_user_id: `u-${platform}`, username: platform, display_name: null, avatar_url: null, external_id: null, status: 'active', approval_required: 0, access_token_enc: null, refresh_token_enc: null, token_expires_at: null, scopes: '', metadata: '{}', connected_at: now, updated_at: now })
          .execute();
      }
      postId = await createDraft();
      const webhook = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://127.0.0.1/hook' }) });
      assert.equal(webhook.status, 201, await webhook.clone().text());
      webhookId = ((await webhook.json()) as { webhook: { id: string } }).webhook.id;
      const media = await t.request('/api/v1/media', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ base64: GIF.toString('base64') }) });
      assert.equal(media.status, 201, await media.clone().text());
      mediaId = ((await media.json()) as { media: { id: string } }).media.id;
      const served = await t.request('/api/v1/openapi.json');
      assert.equal(served.status, 200);
      doc = (await served.json()) as Doc;
      context = { components: doc.components.schemas, known: { accountId: accounts.reddit } };
    });
    after(() => t.close());

    async function createDraft(): Promise<string> {
      const body = JSON.stringify({ content: 'a draft', platforms: [{ accountId: accounts.reddit, platformSpecificData: BASE_OPTIONS.reddit }] });
      const draft = await t.request('/api/v1/posts', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body });
      assert.equal(draft.status, 201, await draft.clone().text());
      return ((await draft.json()) as { post: { id: string } }).post.id;
    }

    /** An existing (or at least well-formed) value for a path parameter. */
    const validParam = (path: string, name: string): string => {
      if (name === 'platform') return 'reddit';
      if (path.startsWith('/accounts/')) return accounts.reddit ?? '';
      if (path.startsWith('/posts/')) return postId;
      if (path.startsWith('/webhooks/{id}')) return webhookId;
      if (path.startsWith('/media/')) return mediaId;
      return 'unknown_1';
    };
    const fill = (path: string, values: Record<string, string> = {}) =>
      path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? validParam(path, name));

    async function run(attempts: Attempt[]): Promise<void> {
      const failures: string[] = [];
      for (const attempt of attempts) {
        const response = await fetch(`${t.url}/api/v1${attempt.path}`, {
          method: attempt.method,
          headers: { authorization: `Bearer ${key}`, ...attempt.headers },
          body: attempt.body,
        });
        const failure = await judge(attempt, response);
        if (failure) failures.push(failure);
      }
      assert.deepEqual(failures, [], `${failures.length} of ${attempts.length} answers break the rules`);
    }

    /** The attempts for one operation of the document. */
    function attemptsFor(path: string, method: string, op: Operation): Attempt[] {
      const verb = method.toUpperCase();
      const attempts: Attempt[] = [];
      const params = op.parameters ?? [];
      const jsonBody = op.requestBody?.content['application/json']?.schema;
      const base = jsonBody ? sample(jsonBody, context) : undefined;
      const baseBody = base === undefined ? undefined : JSON.stringify(base);
      // Parameters are sent with the operation's sample body, so that only they are wrong.
      const withBase = (a: Omit<Attempt, 'method'>): Attempt =>
        verb === 'GET' || baseBody === undefined
          ? { method: verb, ...a }
          : { method: verb, ...a, headers: { 'content-type': 'application/json', ...a.headers }, body: baseBody };

      for (const param of params.filter((p) => p.in === 'path')) {
        for (const value of URL_VALUES) {
          attempts.push(withBase({ label: `${verb} ${path} path.${param.name}=${value.text.slice(0, 30)}`, path: fill(path, { [param.name]: value.text }), markers: value.markers }));
        }
      }
      for (const param of params.filter((p) => p.in === 'query')) {
        for (const value of URL_VALUES) {
          attempts.push(withBase({ label: `${verb} ${path} query.${param.name}=${value.text.slice(0, 30)}`, path: `${fill(path)}?${param.name}=${value.text}`, markers: value.markers }));
        }
        attempts.push(withBase({ label: `${verb} ${path} query.${param.name} twice`, path: `${fill(path)}?${param.name}=a&${param.name}=b%00`, markers: ['b\0'] }));
      }
      for (const value of QUERY_NAMES) {
        attempts.push(withBase({ label: `${verb} ${path} query ${value.text.slice(0, 30)}`, path: `${fill(path)}?${value.text}`, markers: value.markers }));
      }
      for (const param of params.filter((p) => p.in === 'header')) {
        for (const value of ['', 'x'.repeat(300), '\u00ff\u00fe latin-1', 'a, b, c']) {
          attempts.push(withBase({ label: `${verb} ${path} header ${param.name}=${value.slice(0, 20)}`, path: fill(path), headers: { [param.name]: value }, markers: value.length > 255 ? [value] : [] }));
        }
      }
      if (verb === 'GET') return attempts;

      const json = (body: string | Buffer, contentType: string | undefined = 'application/json'): Pick<Attempt, 'path' | 'headers' | 'body'> => ({
        path: fill(path),
        headers: contentType === undefined ? {} : { 'content-type': contentType },
        body,
      });
      for (const raw of RAW_BODIES) {
        attempts.push({ method: verb, label: `${verb} ${path} body ${raw.text.slice(0, 30)}`, ...json(raw.bytes ?? raw.text), markers: raw.markers });
      }
      for (const contentType of CONTENT_TYPES) {
        const markers = contentType?.includes('<script>') ? ['<script>', '%ZZ'] : contentType && contentType.length > 1000 ? ['v'.repeat(101)] : [];
        attempts.push({ method: verb, label: `${verb} ${path} content-type ${String(contentType).slice(0, 40)}`, ...json(baseBody ?? '{}', contentType), markers });
      }
      if (jsonBody && base !== undefined) {
        for (const field of fieldPaths(jsonBody, context)) {
          for (const value of JSON_VALUES) {
            attempts.push({ method: verb, label: `${verb} ${path} ${field.join('.')}=${value.text.slice(0, 30)}`, ...json(withField(base, field, value.text)), markers: value.markers });
          }
        }
      }
      return attempts;
    }

    test('the document lists the operations this pass covers', () => {
      const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
      assert.ok(ids.length >= 30, `only ${ids.length} operations`);
      for (const id of ['createPost', 'createMedia', 'updateAccount', 'listWebhookDeliveries']) assert.ok(ids.includes(id), id);
    });

    test('every operation: hostile path, query, header and body input answers below 500 in the error shape, without echoing it', async () => {
      let count = 0;
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          // Each operation on a post gets a draft of its own (another may have deleted the last).
          if (path.startsWith('/posts/{id}')) postId = await createDraft();
          const attempts = attemptsFor(path, method, op);
          count += attempts.length;
          await run(attempts);
        }
      }
      assert.ok(count > 1000, `only ${count} attempts`);
    });

    test('the public routes outside the document (OAuth callback, signup page, Meta webhook)', async () => {
      const routes: Array<[string, string[]]> = [
        ['/connect/reddit/callback', ['code', 'state', 'error', 'error_description']],
        ['/connect/whatsapp/signup', ['state']],
        ['/platform-webhooks/meta', ['hub.mode', 'hub.verify_token', 'hub.challenge']],
      ];
      const attempts: Attempt[] = [];
      for (const [path, names] of routes) {
        for (const name of names) {
          for (const value of URL_VALUES) {
            attempts.push({ label: `GET ${path} ${name}=${value.text.slice(0, 30)}`, method: 'GET', path: `${path}?state=s&${name}=${value.text}`, markers: value.markers, page: true });
          }
        }
      }
      for (const raw of RAW_BODIES) {
        attempts.push({ label: `POST meta webhook body ${raw.text.slice(0, 30)}`, method: 'POST', path: '/platform-webhooks/meta', headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' }, body: raw.bytes ?? raw.text, markers: raw.markers });
      }
      await run(attempts);
    });

    test('createPost: hostile platformSpecificData on every platform, drafts and live', async () => {
      const random = seeded(12);
      const attempts: Attempt[] = [];
      // whatsapp accounts do not publish posts: their targets stop before the options.
      for (const platform of PLATFORMS.filter((p) => p !== 'whatsapp')) {
        for (const option of OPTION_KEYS) {
          // Four of the values for each key, chosen by the seeded generator; live or draft likewise.
          for (let i = 0; i < 4; i++) {
            const value: Hostile = OPTION_VALUES[Math.floor(random() * OPTION_VALUES.length)] ?? { text: 'null', markers: [] };
            const live = random() < 0.5;
            const base = { content: 'fuzz', ...(live ? { publishNow: true } : {}), platforms: [{ accountId: accounts[platform], platformSpecificData: BASE_OPTIONS[platform] }] };
            attempts.push({
              label: `createPost ${platform}${live ? ' live' : ''} ${option}=${value.text.slice(0, 30)}`,
              method: 'POST',
              path: '/posts',
              headers: { 'content-type': 'application/json' },
              body: withField(base, ['platforms', 0, 'platformSpecificData', option], value.text),
              markers: value.markers,
            });
          }
        }
      }
      await run(attempts);
    });

    test('createMedia: hostile multipart uploads', async () => {
      const boundary = 'fuzzboundary';
      const form = (parts: Array<string | Buffer>, close = true) =>
        Buffer.concat([...parts.flatMap((p) => [Buffer.from(`--${boundary}\r\n`), Buffer.from(p), Buffer.from('\r\n')]), Buffer.from(close ? `--${boundary}--\r\n` : '')]);
      // A good file by default, so that uploads with a hostile name get as far as the store.
      const file = (filename: string, bytes: Buffer = GIF) =>
        Buffer.concat([Buffer.from(`Content-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`), bytes]);
      const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
      const multipart = { 'content-type': `multipart/form-data; boundary=${boundary}` };
      const cases: Array<[string, Buffer, string[], Record<string, string>?]> = [
        ['a NUL in the file name', form([file('a\0b.gif')]), ['a\0b']],
        ['a NUL in the fileName field', form([field('fileName', 'x\0y.gif'), file('a.gif')]), ['x\0y']],
        ['a NUL in mimeType', form([field('mimeType', 'image/gif\0'), file('a.gif')]), ['image/gif\0']],
        ['a NUL in a field name', form([field('n\0m', 'v'), file('a.gif')]), ['n\0m']],
        ['a long file name', form([file('f'.repeat(10_000))]), ['f'.repeat(300)]],
        ['a file name cut inside a surrogate pair', form([file(`x${'\u{1F4A9}'.repeat(200)}`)]), []],
        ['a long fileName', form([field('fileName', 'g'.repeat(5_000)), file('a.gif')]), ['g'.repeat(300)]],
        ['unicode oddities in fileName', form([field('fileName', '\u202e\ufeff\uffff.gif'), file('a.gif')]), []],
        ['a hostile mimeType', form([field('mimeType', '<script>%ZZ'), file('a.gif')]), ['<script>']],
        ['a hostile field name', form([field('<script>'.repeat(50), 'v'), file('a.gif')]), ['<script>']],
        ['a second file', form([file('a.gif'), `Content-Disposition: form-data; name="other"; filename="b.gif"\r\n\r\nxx`]), []],
        ['a file under another name', form([`Content-Disposition: form-data; name="<b>evil</b>"; filename="b.gif"\r\n\r\nxx`]), ['<b>evil']],
        ['not an image', form([file('a.gif', Buffer.from('not an image'))]), []],
        ['no file', form([field('fileName', 'a.gif')]), []],
        ['no closing boundary', form([file('a.gif')], false), []],
        ['garbage', Buffer.from('\0\0\0 this is not multipart'), []],
        ['a part without headers', form(['\r\nno headers']), []],
        ['an empty body', Buffer.alloc(0), []],
        ['no boundary', form([file('a.gif')]), [], { 'content-type': 'multipart/form-data' }],
        ['a hostile boundary', form([file('a.gif')]), ['%ZZ'], { 'content-type': 'multipart/form-data; boundary="%ZZ\u00ff"' }],
      ];
      await run(cases.map(([label, body, markers, headers]) => ({ label: `createMedia ${label}`, method: 'POST', path: '/media', headers: headers ?? multipart, body, markers })));
    });

    test('createMedia: URL uploads whose path is hostile (the file name is taken from it)', async () => {
      const files = await new FileServer().start();
      try {
        const attempts: Attempt[] = [];
        for (const value of URL_VALUES) {
          const path = `/${value.text}.gif`;
          files.file(path, GIF, 'image/gif');
          attempts.push({ label: `createMedia url ${path.slice(0, 30)}`, method: 'POST', path: '/media', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: files.url(path) }), markers: value.markers });
        }
        await run(attempts);
      } finally {
        await files.close();
      }
    });
  });
}
