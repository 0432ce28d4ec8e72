// The sandbox's state kept in a file across restarts (issue 12, point 2): the embedded sandbox of
// `serve` keeps DATA_DIR/sandbox-state.json, so the tokens the service holds, the people, Pages
// and subreddits, what was published and the id counters are all there after a restart.
//
// When: loaded once, when the sandbox is first served (SandboxState.openStateFile, from the
// plugin); saved SAVE_DELAY_MS after the first change that follows a save (a sandbox request, a
// timer firing, background work settling, the clock moving), so a steady stream of requests costs
// a few writes a second, not one each; and at close, synchronously, after any write under way.
// Taking the snapshot blocks the event loop (about 5 ms per thousand records), so a large state
// waits COST_FACTOR times its last snapshot's cost between saves: saving never takes more than a
// fifth of the process. A SIGKILL therefore loses the changes of the last SAVE_DELAY_MS (a few
// hundred ms with a state of tens of thousands of records, more beyond) plus one write.
//
// How: the whole file is written to a temporary name beside it, flushed to disk, and renamed over
// the old one, so a crash at any moment leaves either the previous file or the new one, never a
// half-written one. A file that does not parse, has another version, or no longer fits the code
// is renamed aside (`….unreadable-<time>`) with one line on stderr, and the sandbox starts fresh.
//
// What is not kept (see NOT_KEPT): the clock's base (its offset is kept: sandbox time goes on
// from real time), fault injections, the request journal, the constructor's options, and events
// waiting on timers (WhatsApp status progressions and template reviews in flight stay at the
// status they had). Background work cut off by the restart is settled by the modules' `restored`
// hooks (module.ts).
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { decode, encode, restoreInto, SnapshotError } from './snapshot.ts';
import type { SandboxState } from './state.ts';

/** Bump when a change to the stores makes older files wrong (they are then set aside). */
export const SANDBOX_STATE_VERSION = 1;
export const SAVE_DELAY_MS = 200;
const COST_FACTOR = 4;
/** The file's name in DATA_DIR. */
export const SANDBOX_STATE_FILE = 'sandbox-state.json';

/** SandboxState fields that are not kept: rebuilt by the constructor, or meant to end with the process. */
const NOT_KEPT = new Set(['clock', 'faults', 'journal', 'options', 'timers']);

interface StateFile {
  version: number;
  savedAt: string;
  clockOffsetMs: number;
  state: unknown;
}

export class SandboxPersistence {
  readonly file: string;
  readonly #state: SandboxState;
  readonly #log: (line: string) => void;
  #dirty = false;
  #timer: NodeJS.Timeout | null = null;
  #writing: Promise<void> | null = null;
  #closed = false;
  #writes = 0;
  /** How long the last snapshot took to take, in ms. */
  #cost = 0;

  constructor(file: string, state: SandboxState, log: (line: string) => void) {
    this.file = file;
    this.#state = state;
    this.#log = log;
  }

  /** Restores the state from the file, if there is one; a bad file is set aside. */
  load(): void {
    this.#removeLeftovers();
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      this.#log(`sandbox: cannot read ${this.file} (${String(error)}); starting with a fresh sandbox`);
      return;
    }
    try {
      this.#restore(parse(text));
    } catch (error) {
      const reason = error instanceof SnapshotError || error instanceof SyntaxError ? error.message : String(error);
      const aside = `${this.file}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      try {
        renameSync(this.file, aside);
        this.#log(`sandbox: ${this.file} could not be restored (${reason}); set aside as ${aside}, starting with a fresh sandbox`);
      } catch (renameError) {
        this.#log(`sandbox: ${this.file} could not be restored (${reason}) nor set aside (${String(renameError)}); starting with a fresh sandbox`);
      }
      this.#state.reset();
    }
  }

  /** Something changed: save soon (once per SAVE_DELAY_MS at most, however many changes). */
  touch(): void {
    if (this.#closed) return;
    this.#dirty = true;
    if (this.#timer || this.#writing) return; // a write under way schedules the next one
    this.#timer = setTimeout(() => this.#saveNow(), Math.max(SAVE_DELAY_MS, this.#cost * COST_FACTOR));
    this.#timer.unref();
  }

  /** Waits for a write under way, then writes what is left, synchronously. Never throws. */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (!this.#dirty) return;
    this.#dirty = false;
    try {
      writeAtomicSync(this.file, this.#serialize(), this.#tempName());
    } catch (error) {
      this.#log(`sandbox: cannot save the state to ${this.file} (${String(error)})`);
    }
  }

  /** The last save; later changes are not kept. */
  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
  }

  #restore(saved: StateFile): void {
    const decoded = decode(saved.state);
    if (!decoded || typeof decoded !== 'object' || Array.isArray(decoded)) throw new SnapshotError('the file holds no state');
    const target = this.#state as unknown as Record<string, unknown>; // fields by name: the generic part
    for (const [key, value] of Object.entries(decoded)) {
      if (NOT_KEPT.has(key) || !(key in target)) continue; // a field the code no longer has
      target[key] = restoreInto(target[key], value, key);
    }
    const behind = saved.clockOffsetMs - this.#state.clock.offset();
    if (behind > 0) this.#state.clock.advance(behind);
    this.#state.restored();
  }

  #serialize(): string {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(this.#state)) if (!NOT_KEPT.has(key)) fields[key] = value;
    const file: StateFile = { version: SANDBOX_STATE_VERSION, savedAt: new Date().toISOString(), clockOffsetMs: this.#state.clock.offset(), state: encode(fields) };
    return JSON.stringify(file);
  }

  #saveNow(): void {
    this.#timer = null;
    if (!this.#dirty || this.#closed) return;
    this.#dirty = false;
    let text: string;
    const started = performance.now();
    try {
      text = this.#serialize();
      this.#cost = performance.now() - started;
    } catch (error) {
      this.#log(`sandbox: cannot save the state (${String(error)})`);
      return;
    }
    this.#writing = writeAtomic(this.file, text, this.#tempName())
      .catch((error: unknown) => this.#log(`sandbox: cannot save the state to ${this.file} (${String(error)})`))
      .finally(() => {
        this.#writing = null;
        if (this.#dirty && !this.#closed) {
          this.#dirty = false;
          this.touch();
        }
      });
  }

  /** Temporary files of writes a crash cut off: never renamed, never to be read. */
  #removeLeftovers(): void {
    const prefix = `${basename(this.file)}.`;
    let names: string[];
    try {
      names = readdirSync(dirname(this.file));
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith(prefix) && /^\d+\.\d+\.tmp$/.test(name.slice(prefix.length))) rmSync(join(dirname(this.file), name), { force: true });
    }
  }

  #tempName(): string {
    return `${this.file}.${process.pid}.${++this.#writes}.tmp`;
  }
}

function parse(text: string): StateFile {
  const value: unknown = JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SnapshotError('not a sandbox state file');
  const file = value as Partial<StateFile>;
  if (file.version !== SANDBOX_STATE_VERSION) throw new SnapshotError(`version ${String(file.version)}, this code reads version ${SANDBOX_STATE_VERSION}`);
  if (typeof file.clockOffsetMs !== 'number' || !('state' in file)) throw new SnapshotError('not a sandbox state file');
  return { version: file.version, savedAt: String(file.savedAt), clockOffsetMs: file.clockOffsetMs, state: file.state };
}

async function writeAtomic(file: string, text: string, temp: string): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

function writeAtomicSync(file: string, text: string, temp: string): void {
  mkdirSync(dirname(file), { recursive: true });
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeFileSync(fd, text, 'utf8');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
