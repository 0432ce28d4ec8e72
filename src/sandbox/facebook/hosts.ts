// www.facebook.com (the Login dialog) and graph.facebook.com (the Graph API), as the sandbox
// serves them. The Meta piece adds Page publishing, Instagram publishing, WhatsApp and ads
// nodes to `facebookGraphNodes`.
import { Host } from '../core/router.ts';
import { graphHostErrors } from '../meta/graph-error.ts';
import { GraphNodes } from '../meta/nodes.ts';
import { appNode } from '../meta/subscriptions.ts';
import { registerConsent } from '../oauth/consent.ts';
import { debugToken } from './debug-token.ts';
import { facebookAccessToken, facebookConsent } from './login.ts';
import { facebookMe, pageNode, userNode } from './nodes.ts';
import { metaGraphNodes } from './graph-nodes.ts';
import { whatsappNodes } from '../whatsapp/nodes.ts';
import { adsNodes } from '../ads/nodes.ts';
import { adsSearch } from '../ads/search.ts';

export function facebookWebHost(): Host {
  const host = new Host('www.facebook.com', graphHostErrors, { graphVersion: true });
  registerConsent(host, '/dialog/oauth', facebookConsent);
  return host;
}

export function facebookGraphNodes(): GraphNodes {
  return new GraphNodes().add(userNode, pageNode, ...metaGraphNodes, appNode, ...whatsappNodes, ...adsNodes);
}

export function facebookGraphHost(nodes = facebookGraphNodes()): Host {
  const host = new Host('graph.facebook.com', graphHostErrors, { graphVersion: true });
  host.get('/oauth/access_token', facebookAccessToken);
  host.post('/oauth/access_token', facebookAccessToken);
  host.get('/debug_token', debugToken);
  host.get('/search', adsSearch);
  nodes.mount(host, { me: facebookMe });
  return host;
}
