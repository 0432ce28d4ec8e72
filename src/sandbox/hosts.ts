// Every simulated host, in one list: adding a platform is one folder and one line here.
import type { Host } from './core/router.ts';
import { facebookGraphHost, facebookWebHost } from './facebook/hosts.ts';
import { instagramGraphHost, instagramWebHosts } from './instagram/hosts.ts';
import { threadsGraphHost, threadsWebHosts } from './threads/hosts.ts';
import { redditHosts } from './reddit/hosts.ts';
import { tiktokHosts } from './tiktok/hosts.ts';
import { lookasideHost } from './whatsapp/nodes.ts';
import { ruploadHost } from './facebook/rupload.ts';

export function buildHosts(): Host[] {
  return [facebookWebHost(), facebookGraphHost(), ...instagramWebHosts(), instagramGraphHost(), ...threadsWebHosts(), threadsGraphHost(), ...tiktokHosts(), ...redditHosts(), lookasideHost(), ruploadHost()];
}
