// Runs the `socialapi` command as a separate process, as an operator would.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/socialapi.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runToEnd(process.execPath, [BIN, ...args], { ...process.env, LOG_LEVEL: 'silent', ...env });
}

/** Runs a program in the project's folder to its end, with its output collected. */
export function runToEnd(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Spawned {
  child: ChildProcess;
  output(): string;
  /** Resolves with the output once `pattern` appears in it. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

// Processes a test started and has not seen exit: killed when the test process ends, so a test
// that failed before its stop() (a start that timed out) leaves no server running behind it
// (run-tests.ts ends each file's process once its tests are done, open handles or not).
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts a long-running command (serve, worker) and collects its output. */
export function spawnCli(args: string[], env: Record<string, string>): Spawned {
  return spawnProcess(process.execPath, [BIN, ...args], env);
}

/**
 * Starts any program in the project's folder (`npm start`) and collects its output; `detached`
 * gives it a process group of its own, to signal it as a terminal would (`kill(-pid)`).
 */
export function spawnProcess(file: string, args: string[], env: Record<string, string>, options: { detached?: boolean } = {}): Spawned {
  const child = spawn(file, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached ?? false });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const w of waiters) w();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    // Generous: a start runs migrations and loads the whole app, which on a busy 2-core machine took
    // over 15 s once; a wait that passes costs nothing, and a start that truly hangs still fails.
    waitFor(pattern, timeoutMs = 40_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (match) {
            cleanup();
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; output:\n${output}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        void exited.then(() => {
          if (waiters.has(check)) {
            cleanup();
            reject(new Error(`process exited before ${pattern}; output:\n${output}`));
          }
        });
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The processes under `pid` (children, grandchildren …), read from /proc (Linux). */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name, in parentheses, may hold spaces: the fields after its closing one.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** True while a process with this id exists (a zombie counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}
