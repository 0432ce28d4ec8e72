// The platform sandbox in a process of its own, for a benchmark whose figures the sandbox's work
// must not move: in production the platform is other machines, and its webhooks (signed, sent)
// cost the client nothing. The bench drives it through its control API over HTTP and, for the
// one thing that API does not offer (a Page token issued without the login flow), over the IPC
// channel of this module's child.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sandboxApp } from '../src/platforms/registry.ts';
import { startSandbox } from '../src/sandbox/index.ts';

export interface SandboxPage {
  pageId: string;
  name: string;
  category: string;
  tasks: string[];
  token: string;
}

export interface SandboxProcess {
  url: string;
  /** A facebook user with one Page, and a long-lived Page token with `scopes` for the service's Meta app. */
  addFacebookPage(token: string, scopes: string[]): Promise<SandboxPage>;
  /** Resolves once the sandbox has nothing in flight (webhooks sent, timers run). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

type Request = { id: number; op: 'addFacebookPage'; token: string; scopes: string[] };
type Reply = { id: number; result?: unknown; error?: string };

export async function startSandboxProcess(): Promise<SandboxProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { ready?: string }) => (message.ready ? resolve(message.ready) : reject(new Error('the sandbox process did not start'))));
    child.once('exit', (code) => reject(new Error(`the sandbox process exited (${String(code)}) before it was listening`)));
  });
  let next = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  child.on('message', (message: Reply) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(message.error));
    else waiting.resolve(message.result);
  });
  const call = (request: Omit<Request, 'id'>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      child.send({ ...request, id });
    });
  return {
    url,
    addFacebookPage: async (token, scopes) => (await call({ op: 'addFacebookPage', token, scopes })) as SandboxPage,
    async idle() {
      const res = await fetch(`${url}/_sandbox/idle`, { method: 'POST' });
      if (res.status !== 200) throw new Error(`POST /_sandbox/idle answered ${res.status}`);
    },
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The child: the sandbox, with the service's Meta app configured (sandbox mode's fixed one). */
async function runChild(): Promise<void> {
  const sandbox = await startSandbox({ seed: 'bench' });
  const { state } = sandbox;
  const meta = sandboxApp('meta');
  state.configureApp({ platform: 'facebook', clientId: meta.clientId, clientSecret: meta.clientSecret });
  process.on('message', (request: Request) => {
    try {
      const { user, pages } = state.addFacebookUser({ pages: [{}] });
      const page = pages[0];
      if (!page) throw new Error('the sandbox made no Page');
      state.issueToken({ value: request.token, platform: 'facebook', type: 'page', clientId: meta.clientId, subjectId: page.id, userId: user.id, scopes: request.scopes, declined: [], pageIds: [page.id], ttlSeconds: null, longLived: true });
      const result: SandboxPage = { pageId: page.id, name: page.name, category: page.category, tasks: page.tasks, token: request.token };
      process.send?.({ id: request.id, result } satisfies Reply);
    } catch (error) {
      process.send?.({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies Reply);
    }
  });
  process.once('SIGTERM', () => void sandbox.close().then(() => process.exit(0)));
  process.send?.({ ready: sandbox.url });
}

if (import.meta.main && process.argv.includes('--child')) await runChild();
