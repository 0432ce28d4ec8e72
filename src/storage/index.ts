// The media store of a configuration: the S3 bucket when S3_BUCKET is set, else local disk under
// DATA_DIR/media. One instance per Config (its S3 client keeps connections), shared by the API
// and the jobs of a process.
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { createLocalStore, type LocalStore } from './local.ts';
import { createS3Store } from './s3.ts';
import type { MediaStore } from './types.ts';

const stores = new WeakMap<Config, MediaStore>();
const locals = new WeakMap<Config, LocalStore>();

/**
 * The public base of the local store. Local files are public when PUBLIC_BASE_URL is set
 * explicitly, or in sandbox mode, where the default http://HOST:PORT is exactly where the
 * in-process sandbox fetches them. In live mode the default (a loopback address) reaches no
 * platform, so publicUrl stays null rather than promise a URL nobody outside can fetch.
 */
export function localPublicBase(config: Config): string | null {
  return config.publicBaseUrlExplicit || config.sandbox ? config.publicBaseUrl : null;
}

/** The local store; always there, also when S3 is configured (files stored before keep being served). */
export function localMediaStore(config: Config): LocalStore {
  let store = locals.get(config);
  if (!store) {
    store = createLocalStore(join(config.dataDir, 'media'), localPublicBase(config));
    locals.set(config, store);
  }
  return store;
}

/** The store new uploads go to. */
export function mediaStore(config: Config): MediaStore {
  let store = stores.get(config);
  if (!store) {
    store = config.s3 ? createS3Store(config.s3) : localMediaStore(config);
    stores.set(config, store);
  }
  return store;
}

/** The store holding a stored row's bytes; null when that store is no longer configured. */
export function storeFor(config: Config, storage: MediaStore['kind']): MediaStore | null {
  if (storage === 'local') return localMediaStore(config);
  const current = mediaStore(config);
  return current.kind === storage ? current : null;
}
