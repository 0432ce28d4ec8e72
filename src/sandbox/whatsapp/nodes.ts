// The WhatsApp Cloud API node types on graph.facebook.com (platforms.md §7), registered in
// facebook/hosts.ts, and the hosts WhatsApp adds (the media download host).
import type { NodeResolver } from '../meta/nodes.ts';
import { lookasideHost, mediaNode } from './media.ts';
import { phoneNumberNode } from './phone-numbers.ts';
import { templateNode } from './templates.ts';
import { wabaNode } from './waba.ts';

export const whatsappNodes: NodeResolver[] = [wabaNode, phoneNumberNode, mediaNode, templateNode];

export { lookasideHost };
