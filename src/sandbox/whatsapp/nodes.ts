// The WhatsApp Cloud API node types on graph.facebook.com (platforms.md §7), which the WhatsApp
// module (module.ts) adds to the facebook module's Graph host.
import type { NodeResolver } from '../meta/nodes.ts';
import { mediaNode } from './media.ts';
import { phoneNumberNode } from './phone-numbers.ts';
import { templateNode } from './templates.ts';
import { wabaNode } from './waba.ts';

export const whatsappNodes: NodeResolver[] = [wabaNode, phoneNumberNode, mediaNode, templateNode];
