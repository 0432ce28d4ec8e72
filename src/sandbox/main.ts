// `socialapi sandbox`: the sandbox alone, on SANDBOX_PORT (default 4010). Point the service at it
// with PLATFORM_API_BASE=<printed URL>. In memory, unless given a state file (SANDBOX_STATE_FILE
// here, or runSandbox's `stateFile`) to keep its state across restarts.
import { startSandbox } from './index.ts';

export async function runSandbox(port: number, host = '127.0.0.1', stateFile?: string): Promise<() => Promise<void>> {
  const sandbox = await startSandbox({ port, host, logger: false, stateFile });
  process.stdout.write(`sandbox listening on ${sandbox.url}${stateFile ? ` (state kept in ${stateFile})` : ''}\n`);
  return () => sandbox.close();
}

if (import.meta.main) {
  const port = Number(process.env.SANDBOX_PORT ?? '4010');
  const close = await runSandbox(port, process.env.SANDBOX_HOST ?? '127.0.0.1', process.env.SANDBOX_STATE_FILE || undefined);
  const stop = () => void close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
