// Media on local disk under DATA_DIR/media, served by the service itself at
// PUBLIC_BASE_URL/media-files/<key> (see modules/media/files-route.ts). An upload is written to
// .partial/ first and renamed into place once complete and flushed, so a half-written file is
// never served, and a crash leaves only a .partial/ file that media.cleanup sweeps.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MediaStore } from './types.ts';

export const PARTIAL_DIR = '.partial';

export interface LocalStore extends MediaStore {
  readonly kind: 'local';
  readonly dir: string;
  /** The file of a key (the key is checked by the caller: keys never contain separators). */
  pathOf(key: string): string;
  /** Removes .partial/ files older than `olderThanMs` (uploads a crash interrupted); returns how many. */
  sweepPartials(now: number, olderThanMs: number): Promise<number>;
}

export function createLocalStore(dir: string, publicBase: string | null): LocalStore {
  const partialDir = join(dir, PARTIAL_DIR);
  return {
    kind: 'local',
    dir,
    pathOf: (key) => join(dir, key),
    async put(key, body: Readable) {
      await mkdir(partialDir, { recursive: true });
      const partial = join(partialDir, `${key}.${randomBytes(6).toString('hex')}`);
      try {
        // flush: fsync before close, so the rename below never publishes unwritten data.
        await pipeline(body, createWriteStream(partial, { flags: 'wx', flush: true }));
        await rename(partial, join(dir, key));
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    async delete(key) {
      await rm(join(dir, key), { force: true });
    },
    publicUrl: (key) => (publicBase === null ? null : `${publicBase}/media-files/${key}`),
    async sweepPartials(now, olderThanMs) {
      let names: string[];
      try {
        names = await readdir(partialDir);
      } catch {
        return 0;
      }
      let removed = 0;
      for (const name of names) {
        const file = join(partialDir, name);
        const info = await stat(file).catch(() => null);
        if (info && now - info.mtimeMs > olderThanMs) {
          await rm(file, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
