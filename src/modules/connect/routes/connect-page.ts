// The service's own connect page, where GET /connect/{platform} sends the person when the
// platform's sign-in starts on a page of ours. For a platform that signs in with credentials typed
// on a page rather than through an OAuth consent (a PageConnector: Bluesky's app passwords), GET
// shows the platform's form for the state; its POST signs in with what was typed, which is used
// for that one call and never stored, and then goes on as the OAuth callback does. A wrong
// sign-in shows the form again; the fifth spends the state. For an OAuth connector with a landing
// (WhatsApp's embedded signup), GET shows that page (landing.ts), whose link leads to the
// platform's consent, and there is nothing to POST. Public: the state is the credential, so the
// pages send no Referer.
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Config } from '../../../config.ts';
import { API_PREFIX } from '../../../http/openapi.ts';
import type { Api } from '../../../http/types.ts';
import { ConnectRefusal } from '../../../platforms/errors.ts';
import { definitionOf } from '../../../platforms/registry.ts';
import type { ConnectPage, PageConnector } from '../../../platforms/types.ts';
import { PLATFORMS } from '../../accounts/schemas.ts';
import { finish, page } from '../finish.ts';
import { authorizeUrlFor, showLanding } from '../landing.ts';
import { connectPageHtml, escapeHtml, inertPageHeaders } from '../pages.ts';
import { connectFailed, settled, settleOutcome } from '../service.ts';
import { consumeState, openState, releaseState } from '../state.ts';

/** Wrong sign-ins a state allows; the last one spends it. */
export const CONNECT_PAGE_TRIES = 5;

const FIELD_LIMIT = 1000;

export function connectPageUrl(config: Config, platform: string, state: string): string {
  return `${config.publicBaseUrl}${API_PREFIX}/connect/${platform}/signup?state=${encodeURIComponent(state)}`;
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}' +
  'label{display:block;margin:1rem 0 .3rem;font-weight:600}input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}' +
  'button{margin-top:1.2rem;padding:.6rem 1.2rem;font-size:1rem}.error{color:#b00020;font-weight:600}';

// There is no script and every text is escaped, so nothing can add a form of its own.
const PAGE_HEADERS = inertPageHeaders(STYLE, { form: true });

function formPage(platform: string, state: string, form: ConnectPage, typed: Record<string, string>, error: string | null): string {
  const fields = form.fields
    .map((field) => {
      const id = `field-${field.name}`;
      const value = field.secret ? '' : (typed[field.name] ?? '');
      const attributes = [
        `id="${id}"`,
        `name="${escapeHtml(field.name)}"`,
        `type="${field.secret ? 'password' : 'text'}"`,
        `maxlength="${field.maxLength}"`,
        'required',
        field.autocomplete ? `autocomplete="${escapeHtml(field.autocomplete)}"` : '',
        field.placeholder ? `placeholder="${escapeHtml(field.placeholder)}"` : '',
        value ? `value="${escapeHtml(value)}"` : '',
      ].filter(Boolean);
      return `<label for="${id}">${escapeHtml(field.label)}</label><input ${attributes.join(' ')}>`;
    })
    .join('\n');
  return connectPageHtml(
    form.title,
    STYLE,
    `${form.intro.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n')}
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${API_PREFIX}/connect/${platform}/signup">
<input type="hidden" name="state" value="${escapeHtml(state)}">
${fields}
<button type="submit">${escapeHtml(form.submit)}</button>
</form>
${form.help ? `<p><a href="${escapeHtml(form.help.url)}" rel="noopener noreferrer" target="_blank">${escapeHtml(form.help.text)}</a></p>` : ''}`,
  );
}

function showForm(reply: FastifyReply, status: number, platform: string, state: string, connector: PageConnector, typed: Record<string, string>, error: string | null): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .headers(PAGE_HEADERS)
    .send(formPage(platform, state, connector.page, typed, error));
}

const expired = (reply: FastifyReply, platform: string) =>
  page(
    reply,
    400,
    'This link has expired',
    `This ${definitionOf(platform)?.displayName ?? platform} connection link was already used, tried too many times or is more than 10 minutes old, so nothing was connected. Start again from the app.`,
  );

/** The form's fields as typed: each one the page asks for, trimmed unless secret. A missing one is named. */
function typedFields(connector: PageConnector, body: Record<string, unknown>): { fields: Record<string, string>; missing: string | null } {
  const fields: Record<string, string> = {};
  let missing: string | null = null;
  for (const field of connector.page.fields) {
    const raw = body[field.name];
    const value = typeof raw === 'string' ? (field.secret ? raw : raw.trim()) : '';
    if (value === '' || value.length > field.maxLength) missing ??= field.label;
    fields[field.name] = value.slice(0, field.maxLength);
  }
  return { fields, missing };
}

const params = Type.Object({ platform: Type.String({ enum: [...PLATFORMS] }) });

export function connectPage(api: Api): void {
  api.get(
    '/connect/:platform/signup',
    { config: { public: true }, schema: { hide: true, params, querystring: Type.Object({ state: Type.Optional(Type.String({ maxLength: 200 })) }) } },
    async (request, reply) => {
      const { deps } = request.server;
      const { platform } = request.params;
      const adapter = deps.platforms.of(platform);
      const state = request.query.state ?? '';
      const open = adapter ? await openState(deps.store.db, platform, state, deps.clock.now()) : null;
      if (!adapter || !open) return expired(reply, platform);
      // The state's flavour names the flow GET /connect/{platform} started it for.
      const oauth = adapter.connectors.find((c) => c.flavour === open.flavour);
      if (oauth?.landing) return showLanding(reply, oauth.landing, authorizeUrlFor(deps, platform, oauth, state, open.code_verifier_enc));
      const form = adapter.pageConnector;
      if (!form || form.flavour !== open.flavour) return expired(reply, platform);
      return showForm(reply, 200, platform, state, form, {}, null);
    },
  );

  // Form bodies are parsed for this route only: the rest of the API takes JSON.
  api.register(async (plugin) => {
    await plugin.register(formbody, { bodyLimit: 16 * 1024 });
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>();
    scope.post(
      '/connect/:platform/signup',
      {
        config: { public: true },
        schema: { hide: true, params, body: Type.Record(Type.String(), Type.String({ maxLength: FIELD_LIMIT })) },
      },
      async (request, reply) => {
        const { deps } = request.server;
        const { platform } = request.params;
        const connector = deps.platforms.of(platform)?.pageConnector;
        const state = request.body.state ?? '';
        // The state is claimed for the length of the sign-in, so two submits cannot both use it.
        const claimed = connector ? await consumeState(deps.store.db, platform, state, deps.clock.now()) : null;
        if (!connector || !claimed) return expired(reply, platform);
        const { fields, missing } = typedFields(connector, request.body);
        if (missing !== null) {
          await releaseState(deps.store.db, platform, state, claimed.failed_tries);
          return showForm(reply, 400, platform, state, connector, fields, `Enter your ${missing.toLowerCase()}.`);
        }
        const target = { organizationId: claimed.organization_id, platform, flavour: claimed.flavour, externalId: claimed.external_id, redirectUrl: claimed.redirect_url };
        try {
          const outcome = await settled(target, async () => settleOutcome(deps, target, await connector.complete({ fields, now: deps.clock.now() })));
          return finish(reply, claimed.redirect_url, outcome);
        } catch (error) {
          if (!(error instanceof ConnectRefusal)) throw error;
          const tries = claimed.failed_tries + 1;
          if (tries >= CONNECT_PAGE_TRIES) {
            return finish(reply, claimed.redirect_url, connectFailed('access_denied', `${CONNECT_PAGE_TRIES} wrong sign-ins: nothing was connected. Start again from the app.`));
          }
          await releaseState(deps.store.db, platform, state, tries);
          return showForm(reply, 400, platform, state, connector, fields, error.message);
        }
      },
    );
  });
}
