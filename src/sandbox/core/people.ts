// The sandbox's people and their assets, by module: each module with people (Facebook users and
// their Pages, Instagram accounts, Threads users, TikTok creators, reddit users and subreddits)
// brings its fields (`people.fresh`, module.ts) and declares them on People from its folder.
// Seeded by default (the modules' `seed`) and through the control API (their `people` hooks).
import type { StateModule } from './module.ts';

/** The fields the modules add, declared from their folders (`declare module '../core/people.ts'`). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the fields the constructor defines
export interface People {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class People {
  constructor(modules: readonly StateModule<string, object>[]) {
    // Maps are own enumerable fields, as class fields would be, so the state file keeps them;
    // functions are not (the file keeps no function).
    for (const module of modules) {
      for (const [key, value] of Object.entries(module.people?.fresh?.() ?? {})) {
        if (key in this) throw new Error(`sandbox: the people field ${key} is taken`);
        Object.defineProperty(this, key, { value: value as unknown, writable: true, enumerable: typeof value !== 'function', configurable: true });
      }
    }
  }
}
