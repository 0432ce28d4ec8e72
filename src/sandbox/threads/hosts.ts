// threads.net (the authorize page, and the page of each post its permalinks open) and
// graph.threads.net (tokens and the Threads API).
import { Host } from '../core/router.ts';
import { graphHostErrors } from '../meta/graph-error.ts';
import { GraphNodes } from '../meta/nodes.ts';
import { exchangeLongLived, refreshLongLived } from '../meta/token-exchange.ts';
import { registerConsent } from '../oauth/consent.ts';
import { threadsCodeExchange, threadsConsent, threadsFlavour, threadsToken } from './login.ts';
import { threadsContainerNode, threadsMediaNode, threadsUserNode } from './nodes.ts';
import { registerThreadsPostPages } from './post-page.ts';

export function threadsWebHosts(): Host[] {
  return ['threads.net', 'www.threads.net'].map((name) => {
    const host = new Host(name, graphHostErrors);
    registerConsent(host, '/oauth/authorize', threadsConsent);
    registerThreadsPostPages(host);
    return host;
  });
}

export function threadsGraphHost(): Host {
  const host = new Host('graph.threads.net', graphHostErrors, { graphVersion: true });
  host.post('/oauth/access_token', threadsCodeExchange);
  host.get('/access_token', (ctx) => exchangeLongLived(ctx, threadsFlavour));
  host.get('/refresh_access_token', (ctx) => refreshLongLived(ctx, threadsFlavour));
  new GraphNodes()
    .add(threadsUserNode, threadsContainerNode, threadsMediaNode)
    .mount(host, { me: (ctx, input) => threadsToken(ctx, input).subjectId });
  return host;
}
