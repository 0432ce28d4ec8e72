// A sandbox module's descriptor (issue 13, point 6): one folder (threads/, whatsapp/ …) exports
// one, and modules.ts lists them. The state is built from the list (core/module.ts: the store,
// the seed, what a restore needs); the plugin serves the modules' hosts and control routes.
import type { FastifyInstance } from 'fastify';
import type { StateModule } from './core/module.ts';
import type { Host } from './core/router.ts';
import type { SandboxState } from './core/state.ts';
import type { NodeResolver } from './meta/nodes.ts';

/** What a module adds to graph.facebook.com, which the facebook module serves. */
export interface GraphExtension {
  /** Node types, resolved by id after the facebook module's own, in list order. */
  readonly nodes?: readonly NodeResolver[] | undefined;
  /** Routes of fixed paths (`/search`), added before the generic `/{id}` routes. */
  readonly routes?: ((host: Host) => void) | undefined;
}

/** What building the hosts may need of the other modules. */
export interface HostContext {
  /** The Graph extensions of every module, in list order. */
  readonly graph: readonly GraphExtension[];
}

export interface SandboxModule<Name extends string = string, Store extends object = never> extends StateModule<Name, Store> {
  /** The simulated hosts the module serves (each with its routes and its error shape). */
  readonly hosts?: ((context: HostContext) => Host[]) | undefined;
  /** Node types and routes the module adds to graph.facebook.com. */
  readonly graph?: GraphExtension | undefined;
  /** Request headers its platform requires (`linkedin-version` …), which the journal records beside the shared ones. */
  readonly journalHeaders?: readonly string[] | undefined;
  /** Its control routes under `/_sandbox/…`, beside the shared ones (core/control.ts). */
  readonly control?: ((app: FastifyInstance, state: SandboxState) => void) | undefined;
}
