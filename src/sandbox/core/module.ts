// What the state needs of a sandbox module (issue 13, point 6). The core knows no platform: each
// module (one folder: threads/, whatsapp/ …) exports a descriptor, modules.ts lists them, and the
// state is built from that list. The hosts and control routes a module serves are the rest of its
// descriptor (../module.ts); this part is what construction, reset and restore use.
import type { SettingsDefaults } from './settings.ts';
import type { SandboxState } from './state.ts';

/**
 * The stores of the modules, keyed by module name: each module with a store adds its own entry
 * (`declare module '../core/state.ts' { interface SandboxStores { threads: ThreadsStore } }`),
 * and modules.ts checks that the entries and the list agree.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the modules
export interface SandboxStores {}

/** `Store` is `never` for a module without a store (it serves hosts or control routes only). */
export interface StateModule<Name extends string = string, Store extends object = never> {
  /** The module's name: its store is `state[name]`, and is kept under that name in the state file. */
  readonly name: Name;
  /** A fresh, empty store: at construction and at every reset. */
  readonly store?: (() => Store) | undefined;
  /** The default seed, run in list order (after the apps of the options), unless `defaultSeed: false`. */
  readonly seed?: ((state: SandboxState) => void) | undefined;
  /** After the state was restored from a file: settle the work the restart cut off. */
  readonly restored?: ((state: SandboxState) => void) | undefined;
  /** The defaults of its settings (their types: its entries on the interfaces of settings.ts). */
  readonly settings?: (() => SettingsDefaults) | undefined;
  /** Its name is an OAuth flavour too: apps, codes, tokens and queued consent carry it. */
  readonly oauth?: true | undefined;
  /**
   * Its people in the control API, under the module's name: what `GET /_sandbox/people` lists,
   * and what `POST /_sandbox/seed` adds from the value under that name (its answer: the people added).
   */
  readonly people?: PeopleControl | undefined;
  /**
   * Functions it adds to the state (`state.addTikTokCreator()`), declared on SandboxState from
   * its folder; not kept in the state file.
   */
  readonly methods?: Readonly<Record<string, (state: SandboxState, ...args: never[]) => unknown>> | undefined;
}

export interface PeopleControl {
  /**
   * Its fields of `state.people` (declared on People from its folder), fresh at construction and
   * at every reset: maps, kept in the state file under their names, and look-up functions.
   */
  fresh?(): object;
  list(state: SandboxState): unknown;
  seed(state: SandboxState, body: unknown): unknown;
}

/** The stores a list of modules builds, keyed by module name. */
export type StoresOf<Modules extends readonly StateModule<string, object>[]> = {
  readonly [M in Modules[number] as StoreOf<M> extends never ? never : M['name']]: StoreOf<M>;
};

type StoreOf<M extends StateModule<string, object>> = NonNullable<M['store']> extends () => infer S ? S : never;
