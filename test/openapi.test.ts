// The API document: served at /api/v1/openapi.json, printed identically by `npm run openapi`,
// committed as docs/openapi.json (a drift fails here), and clean under Redocly's linter.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Value } from 'typebox/value';
import { ERROR_CODES, type ErrorCode } from '../src/http/errors.ts';
import { startApp, type TestApp } from './harness/app.ts';
import { ROOT, runCli } from './harness/cli.ts';

interface Doc {
  openapi: string;
  info: { version: string };
  components: { securitySchemes: Record<string, { type: string; scheme: string }>; schemas: Record<string, unknown> };
  security: unknown[];
  paths: Record<string, Record<string, { operationId?: string; parameters?: Array<{ in: string; name: string; required?: boolean }>; responses: Record<string, unknown> }>>;
}

// The operations that answer each catalogue code (read from the routes and the services they call).
const PLATFORM_CALLS = ['getPublishingLimit', 'subscribeAccountWebhooks', 'selectPendingConnection', 'connectWhatsApp', 'editPublishedPost', 'unpublishPost', 'updateCommentsSettings'];
const PUBLISHED_OPS = ['editPublishedPost', 'unpublishPost', 'updateCommentsSettings'];
const COMMENT_WRITES = ['replyToComment', 'createInboxComment', 'replyToInboxComment', 'hideInboxComment', 'unhideInboxComment', 'likeInboxComment', 'unlikeInboxComment', 'deleteInboxComment'];
const COMMENT_CALLS = [...COMMENT_WRITES, 'listInboxComments', 'listAccountMentions'];
// The WhatsApp operations answer the Cloud API error table's codes (platforms/whatsapp/errors.ts).
const WHATSAPP_CALLS = ['getWhatsAppPhoneNumber', 'registerWhatsAppPhoneNumber', 'listWhatsAppTemplates', 'createWhatsAppTemplate', 'getWhatsAppTemplate', 'deleteWhatsAppTemplate', 'uploadWhatsAppMedia', 'getWhatsAppMedia', 'deleteWhatsAppMedia'];
// The ads operations call the Marketing API (platforms/meta/marketing-errors.ts), through a facebook account.
const ADS_CALLS = ['listAdAccounts', 'boostPost', 'listCampaigns', 'createCampaign', 'getCampaign', 'updateCampaign', 'listAdSets', 'createAdSet', 'getAdSet', 'updateAdSet', 'listCreatives', 'createCreative',
  'listAds', 'createAd', 'getAd', 'updateAd', 'listAudiences', 'createAudience', 'getAudience', 'deleteAudience', 'addAudienceUsers', 'readAdInsights', 'searchTargeting'];
// Direct messages: the operations that call the platform (platforms/meta/messaging-errors.ts).
const MESSAGE_CALLS = ['syncConversations', 'sendConversationMessage', 'markConversationRead', 'syncConversation'];
// The account analytics read the platform as a whole (post analytics and best time answer a
// target's failure beside the others' values instead).
const ANALYTICS_CALLS = ['getAccountAnalytics', 'getAccountDemographics', 'getOnlineFollowers'];
// The operations that write to a platform take x-request-id (http/idempotency.ts; createPost has its own).
const IDEMPOTENT_WRITES = [
  ...COMMENT_WRITES, 'sendConversationMessage', 'sendWhatsAppMessage', 'createWhatsAppTemplate', 'uploadWhatsAppMedia',
  'boostPost', 'createCampaign', 'createAdSet', 'createCreative', 'createAd', 'createAudience', 'addAudienceUsers', 'editPublishedPost', 'unpublishPost',
  // Writes that set a state or remove something: a retry runs them again.
  'updateCampaign', 'updateAdSet', 'updateAd', 'deleteAudience', 'deleteWhatsAppTemplate', 'deleteWhatsAppMedia', 'markWhatsAppMessageRead',
  'registerWhatsAppPhoneNumber', 'updateCommentsSettings', 'markConversationRead',
];
// Those that answer 409 REQUEST_OUTCOME_UNKNOWN when an interrupted request cannot be settled: no
// way to look on the platform (WhatsApp, ads), or a look that could not tell (comments, messages).
const OUTCOME_UNKNOWN_WRITES = ['sendConversationMessage', 'replyToComment', 'createInboxComment', 'replyToInboxComment', 'sendWhatsAppMessage', 'createWhatsAppTemplate', 'boostPost', 'createCampaign', 'createAdSet', 'createCreative', 'createAd', 'createAudience'];
const ANSWERED_BY: Record<ErrorCode, string[]> = {
  not_supported: ['startConnect', ...PLATFORM_CALLS, ...COMMENT_CALLS, ...WHATSAPP_CALLS, ...ADS_CALLS, ...MESSAGE_CALLS, ...ANALYTICS_CALLS],
  invalid_request: [...PLATFORM_CALLS, ...COMMENT_CALLS, ...WHATSAPP_CALLS, ...ADS_CALLS, ...MESSAGE_CALLS, ...ANALYTICS_CALLS],
  approval_required: [...PUBLISHED_OPS, ...COMMENT_WRITES, 'sendConversationMessage'],
  missing_permission: [...PLATFORM_CALLS, ...COMMENT_CALLS, ...WHATSAPP_CALLS, ...ADS_CALLS, ...MESSAGE_CALLS, ...ANALYTICS_CALLS],
  reconnect_required: [...PLATFORM_CALLS, ...COMMENT_CALLS, ...WHATSAPP_CALLS, ...ADS_CALLS, ...MESSAGE_CALLS, ...ANALYTICS_CALLS],
  outside_messaging_window: ['sendConversationMessage'],
  recipient_unavailable: ['sendConversationMessage', 'markConversationRead'],
  sync_required: ['syncConversation'],
  NOT_EDITABLE: ['updatePost'],
  PUBLISH_IN_PROGRESS: ['deletePost', 'publishPost'],
  ALREADY_PUBLISHED: ['publishPost'],
  APPROVAL_REQUIRED: ['publishPost'],
  REJECTED: ['publishPost'],
  NOT_PUBLISHED: PUBLISHED_OPS,
  ACCOUNT_REMOVED: PUBLISHED_OPS,
  IDEMPOTENCY_KEY_REUSED: ['createPost', ...IDEMPOTENT_WRITES],
  REQUEST_IN_PROGRESS: ['createPost', ...IDEMPOTENT_WRITES],
  REQUEST_OUTCOME_UNKNOWN: OUTCOME_UNKNOWN_WRITES,
  DELIVERY_IN_PROGRESS: ['redeliverWebhook'],
  pending_expired: ['getPendingConnection', 'selectPendingConnection'],
  payload_too_large: ['createMedia', 'uploadWhatsAppMedia'],
  rate_limited: ['createPost', ...PLATFORM_CALLS, ...COMMENT_CALLS, ...WHATSAPP_CALLS, ...ADS_CALLS, ...MESSAGE_CALLS, ...ANALYTICS_CALLS],
  template_error: ['listWhatsAppTemplates', 'createWhatsAppTemplate', 'getWhatsAppTemplate', 'deleteWhatsAppTemplate'],
  recipient_not_allowed: [],
  account_restricted: WHATSAPP_CALLS,
  phone_number_not_registered: WHATSAPP_CALLS,
  marketing_limit: [],
  platform_error: [...PLATFORM_CALLS, ...COMMENT_CALLS, ...WHATSAPP_CALLS, ...ADS_CALLS, ...MESSAGE_CALLS, ...ANALYTICS_CALLS],
};

describe('OpenAPI document', () => {
  let t: TestApp;
  let served: Doc;
  before(async () => {
    t = await startApp('sqlite');
    const res = await t.request('/api/v1/openapi.json');
    assert.equal(res.status, 200);
    served = (await res.json()) as Doc;
  });
  after(() => t.close());

  test('is OpenAPI 3.1, version 1.1.0, with bearer security and the error schema', () => {
    assert.equal(served.openapi, '3.1.0');
    assert.equal(served.info.version, '1.1.0');
    assert.deepEqual(served.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: 'An API key: sk_ followed by 43 characters.' });
    assert.deepEqual(served.security, [{ bearerAuth: [] }]);
    assert.ok(served.components.schemas.Error);
  });

  test('every operation has an operationId and declares 401', () => {
    for (const [path, item] of Object.entries(served.paths)) {
      for (const [method, op] of Object.entries(item)) {
        assert.ok(op.operationId, `${method} ${path} has no operationId`);
        assert.ok(op.responses['401'], `${method} ${path} does not declare 401`);
      }
    }
  });

  test('every error response is the Error schema, which every catalogue answer validates against', () => {
    for (const [path, item] of Object.entries(served.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          assert.deepEqual((response as { content?: unknown }).content, { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }, `${method} ${path} ${status}`);
        }
      }
    }
    const schema = served.components.schemas.Error as object;
    for (const code of Object.keys(ERROR_CODES)) assert.ok(Value.Check(schema, { error: { message: 'What went wrong', code } }), code);
    assert.ok(Value.Check(schema, { error: { message: 'platforms[0].accountId: required' } }));
    assert.ok(!Value.Check(schema, { error: { code: 'NOT_EDITABLE' } }));
  });

  test('the operations that answer a catalogue code declare its status', () => {
    const operations = new Map(Object.values(served.paths).flatMap((item) => Object.values(item).map((op) => [op.operationId, op] as const)));
    for (const [code, ids] of Object.entries(ANSWERED_BY) as Array<[ErrorCode, string[]]>) {
      for (const id of ids) {
        const op = operations.get(id);
        assert.ok(op, `no operation ${id}`);
        assert.ok(op.responses[String(ERROR_CODES[code].status)], `${id} answers ${code} but does not declare ${ERROR_CODES[code].status}`);
      }
    }
  });

  test('every operation that writes to a platform takes x-request-id, and declares the 200 of a replay', () => {
    const operations = new Map(Object.values(served.paths).flatMap((item) => Object.values(item).map((op) => [op.operationId, op] as const)));
    for (const id of ['createPost', ...IDEMPOTENT_WRITES]) {
      const op = operations.get(id);
      assert.ok(op, `no operation ${id}`);
      assert.deepEqual(op.parameters?.filter((p) => p.in === 'header').map((p) => [p.name, p.required ?? false]), [['x-request-id', false]], id);
      assert.ok(op.responses['200'], `${id} declares the replay's 200`);
    }
  });

  test('npm run openapi prints the served document, and docs/openapi.json is current', async () => {
    const printed = await runCli(['openapi'], {});
    assert.equal(printed.code, 0, printed.stderr);
    assert.deepEqual(JSON.parse(printed.stdout), served);
    const committedFile = join(ROOT, 'docs/openapi.json');
    const committed = readFileSync(committedFile, 'utf8');
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(committedFile, printed.stdout);
    assert.equal(committed, printed.stdout, 'docs/openapi.json is stale: run `UPDATE_OPENAPI=1 npm test -- openapi` or `npm run -s openapi > docs/openapi.json`');
  });

  test('passes the Redocly linter', () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/.bin/redocly'), 'lint', '--format=stylish', join(ROOT, 'docs/openapi.json')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
  });
});
