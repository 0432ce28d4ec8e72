// `socialapi sandbox`: the sandbox alone, on SANDBOX_PORT (default 4010). Point the service at it
// with PLATFORM_API_BASE=<printed URL>.
import { startSandbox } from './index.ts';

export async function runSandbox(port: number, host = '127.0.0.1'): Promise<() => Promise<void>> {
  const sandbox = await startSandbox({ port, host, logger: false });
  process.stdout.write(`sandbox listening on ${sandbox.url}\n`);
  return () => sandbox.close();
}

if (import.meta.main) {
  const port = Number(process.env.SANDBOX_PORT ?? '4010');
  const close = await runSandbox(port, process.env.SANDBOX_HOST ?? '127.0.0.1');
  const stop = () => void close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
