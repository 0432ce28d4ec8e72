// Where the browser goes once a connection has an outcome: the client's redirectUrl with
// accountId, pendingId or error in its query, or a small page when the client gave none. Shared
// by the OAuth callback and the service's own connect pages.
import type { FastifyReply } from 'fastify';
import { RESULT_PAGE_HEADERS, resultPage } from './pages.ts';
import type { ConnectResult } from './service.ts';

export function page(reply: FastifyReply, status: number, title: string, message: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').headers(RESULT_PAGE_HEADERS).send(resultPage(title, message));
}

export function finish(reply: FastifyReply, redirectUrl: string | null, result: ConnectResult): FastifyReply {
  if (redirectUrl) {
    const url = new URL(redirectUrl);
    if (result.kind === 'connected') url.searchParams.set('accountId', result.accounts.map((a) => a.id).join(','));
    else if (result.kind === 'pending') url.searchParams.set('pendingId', result.pendingId);
    else {
      url.searchParams.set('error', result.error);
      url.searchParams.set('error_description', result.message);
    }
    return reply.code(302).header('cache-control', 'no-store').redirect(url.toString());
  }
  switch (result.kind) {
    case 'connected':
      return page(reply, 200, 'Account connected', `${result.accounts.map((a) => a.username ?? a.display_name ?? a.platform_user_id).join(', ')} is connected. You can close this window.`);
    case 'pending':
      return page(reply, 200, 'Almost done', 'Choose which accounts to connect in the app that sent you here. You can close this window.');
    case 'failed':
      return page(reply, 400, 'Connection failed', result.message);
    default: {
      const unreachable: never = result;
      return unreachable;
    }
  }
}

