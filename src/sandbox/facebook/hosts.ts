// www.facebook.com (the Login dialog, and the page of each post its permalinks open) and
// graph.facebook.com (the Graph API), as the sandbox serves them: users, Pages, Page content,
// Instagram (Facebook Login flavour) and messaging nodes are the facebook module's own; other
// modules (WhatsApp, ads) add theirs through their descriptor's `graph` (../module.ts), after
// these.
import { Host } from '../core/router.ts';
import { graphHostErrors } from '../meta/graph-error.ts';
import { GraphNodes } from '../meta/nodes.ts';
import { appNode } from '../meta/subscriptions.ts';
import { registerConsent } from '../oauth/consent.ts';
import { debugToken } from './debug-token.ts';
import { facebookAccessToken, facebookConsent } from './login.ts';
import { facebookMe, pageNode, userNode } from './nodes.ts';
import { metaGraphNodes } from './graph-nodes.ts';
import { registerFacebookPostPages } from './post-page.ts';
import type { GraphExtension } from '../module.ts';

export function facebookWebHost(): Host {
  const host = new Host('www.facebook.com', graphHostErrors, { graphVersion: true });
  registerConsent(host, '/dialog/oauth', facebookConsent);
  registerFacebookPostPages(host);
  return host;
}

export function facebookGraphNodes(extensions: readonly GraphExtension[]): GraphNodes {
  return new GraphNodes().add(userNode, pageNode, ...metaGraphNodes, appNode, ...extensions.flatMap((e) => e.nodes ?? []));
}

export function facebookGraphHost(extensions: readonly GraphExtension[]): Host {
  const host = new Host('graph.facebook.com', graphHostErrors, { graphVersion: true });
  host.get('/oauth/access_token', facebookAccessToken);
  host.post('/oauth/access_token', facebookAccessToken);
  host.get('/debug_token', debugToken);
  for (const extension of extensions) extension.routes?.(host);
  facebookGraphNodes(extensions).mount(host, { me: facebookMe });
  return host;
}
