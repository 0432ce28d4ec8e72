// Every simulated host, from the modules' descriptors (modules.ts), by host name.
import type { Host } from './core/router.ts';
import type { SandboxModule } from './module.ts';

export function buildHosts(modules: readonly SandboxModule<string, object>[]): Map<string, Host> {
  const graph = modules.flatMap((m) => (m.graph ? [m.graph] : []));
  const hosts = new Map<string, Host>();
  for (const module of modules) {
    for (const host of module.hosts?.({ graph }) ?? []) {
      if (hosts.has(host.name)) throw new Error(`sandbox: two modules serve ${host.name}`);
      hosts.set(host.name, host);
    }
  }
  return hosts;
}
