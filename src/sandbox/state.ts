// The sandbox's state with every module of the list (modules.ts): what the service, the
// standalone sandbox and tests construct. The type the handlers take is core/state.ts's.
import { SandboxState as CoreState, type SandboxStateOptions } from './core/state.ts';
import { SANDBOX_MODULES } from './modules.ts';

export class SandboxState extends CoreState {
  constructor(options: SandboxStateOptions = {}) {
    super(SANDBOX_MODULES, options);
  }
}
