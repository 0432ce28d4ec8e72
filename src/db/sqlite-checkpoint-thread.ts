// The body of the checkpointer thread (sqlite-checkpointer.ts): its own connection to the
// database file, copying the WAL back into the file now and then. A PASSIVE checkpoint takes no
// write lock and never waits, so the process's own connection keeps writing meanwhile.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const db = new DatabaseSync(file);

const checkpoint = () => {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (another process checkpoints) or a passing I/O error: the next turn tries again.
  }
};
const timer = setInterval(checkpoint, intervalMs);

parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort?.close();
});
parentPort?.postMessage('ready');
