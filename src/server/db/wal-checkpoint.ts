/**
 * SQLite WAL checkpoints off the event loop. A commit that leaves more than `wal_autocheckpoint`
 * pages (1,000) in the write-ahead log copies the whole log into the database file and syncs it
 * before the commit returns, on the server's one thread: after a write of tens of thousands of rows
 * (an import, a restore, rules applied to a long history) that copy held every other request. Such a
 * write commits with autocheckpoint off (`withCheckpointAfter`) and a worker thread, with its own
 * connection to the same file, checkpoints afterwards on the other core (PASSIVE: it never blocks
 * readers or writers); autocheckpoint comes back once that checkpoint has answered, so the next small
 * commit of another request does not copy the large log itself. Durability is unchanged: a committed
 * transaction is in the log either way, and synchronous stays as it is. The thread lives while it has
 * checkpoints to do (it costs about 10 MB of memory, and an idle server does not keep it).
 */
import type { EntityManager } from '@mikro-orm/knex';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { onPostgres } from './sql';

/** What `pragma wal_checkpoint` answers: busy (0 or 1), pages in the log, pages copied into the file. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/**
 * The worker: one connection to the file, one PASSIVE checkpoint per message, answered with the
 * pragma's row (or the error's message). Plain CommonJS text (`eval`), so the server's bundle needs
 * no second entry point; the driver's path comes from the main thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
parentPort.on('message', () => {
  try {
    parentPort.postMessage({ ok: db.pragma('wal_checkpoint(PASSIVE)')[0] });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});
`;

type Answer = { ok: CheckpointResult } | { error: string };

interface Checkpointer {
  worker: Worker;
  /** Callers waiting for answers, in the order of their requests (the worker answers in order). */
  waiting: ((answer: Answer) => void)[];
}

const checkpointers = new Map<string, Checkpointer>();
/** Checkpoints the workers finished, by file (what a test or an operator can watch). */
const finished = new Map<string, number>();

/** Checkpoint worker threads running now (each lives while it has checkpoints to do). */
export function checkpointWorkers(): number {
  return checkpointers.size;
}

/** How many background checkpoints of this file have finished in this process. */
export function checkpointsDone(name: string): number {
  return finished.get(path.resolve(name)) ?? 0;
}

/** better-sqlite3's entry file, found from the running script (dist/server/main.js, a test runner) or else the working directory. */
export function driverPath(): string {
  for (const from of [process.argv[1], path.join(process.cwd(), 'index.js')]) {
    if (!from) continue;
    try {
      return createRequire(path.resolve(from)).resolve('better-sqlite3');
    } catch {
      // try the next place
    }
  }
  return 'better-sqlite3';
}

function checkpointerOf(name: string): Checkpointer {
  const file = path.resolve(name);
  let checkpointer = checkpointers.get(file);
  if (checkpointer) return checkpointer;
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver: driverPath() } });
  // It keeps neither the process nor a test runner alive.
  worker.unref();
  const created: Checkpointer = { worker, waiting: [] };
  checkpointer = created;
  const forget = () => {
    if (checkpointers.get(file) === created) checkpointers.delete(file);
  };
  const fail = (message: string) => {
    forget();
    for (const resolve of created.waiting.splice(0)) resolve({ error: message });
  };
  worker.on('message', (answer: Answer) => {
    if ('ok' in answer) finished.set(file, (finished.get(file) ?? 0) + 1);
    created.waiting.shift()?.(answer);
    // Idle, the thread goes (a worker holds its own heap): the next import starts another one.
    if (created.waiting.length === 0) {
      forget();
      void worker.terminate();
    }
  });
  // An error thrown in the worker arrives as a copy: its message, if it kept one.
  worker.on('error', (error: unknown) => fail(String((error as { message?: unknown } | null)?.message ?? error)));
  worker.on('exit', (code) => fail(`the checkpoint worker exited (${code})`));
  checkpointers.set(file, checkpointer);
  return checkpointer;
}

/**
 * Checkpoints the file's WAL in the background (a worker thread, PASSIVE). Answers what the
 * checkpoint did; a failure (the worker could not start, the file is gone) is an answer too, never
 * a rejection: the pages stay in the log, and the next commit with autocheckpoint on copies them.
 */
export function checkpointInBackground(file: string): Promise<CheckpointResult | { error: string }> {
  return new Promise((resolve) => {
    let checkpointer: Checkpointer;
    try {
      checkpointer = checkpointerOf(file);
    } catch (error) {
      resolve({ error: error instanceof Error ? error.message : String(error) });
      return;
    }
    checkpointer.waiting.push((answer) => resolve('ok' in answer ? answer.ok : answer));
    checkpointer.worker.postMessage(null);
  });
}

/** Stops the checkpoint worker of a file (the app closing its database); waits for it to exit. */
export async function closeCheckpointer(name: string): Promise<void> {
  const file = path.resolve(name);
  const checkpointer = checkpointers.get(file);
  if (!checkpointer) return;
  checkpointers.delete(file);
  await checkpointer.worker.terminate();
}

/** The pragmas `withCheckpointAfter` runs, on the connection the work's transaction uses (outside it). */
export interface PragmaConnection {
  all: <T extends object>(sql: string) => Promise<T[]>;
  run: (sql: string) => Promise<unknown>;
}

/** The pragmas of withCheckpointAfter on the ORM's connection, outside any transaction (SQLite's one connection). */
function pragmaConnection(em: EntityManager): PragmaConnection | null {
  // Inside a transaction SQLite's one connection is that transaction's: its pragmas would wait for it to end.
  if (onPostgres(em) || em.getTransactionContext() !== undefined) return null;
  const connection = em.getConnection();
  return {
    all: <T extends object>(sql: string) => connection.execute<T[]>(sql),
    run: (sql: string) => connection.execute(sql, [], 'run'),
  };
}

/** Writes running with autocheckpoint off, by file, and the setting to give back when the last one's checkpoint answered. */
const deferred = new Map<string, { writes: number; pages: number }>();

/**
 * Runs `work` (a write transaction) with the connection's autocheckpoint off, so its COMMIT only
 * writes the log; then asks `checkpoint` (checkpointInBackground) to copy the log into the file, also
 * when the work failed, and turns autocheckpoint back on once that has answered and no other such
 * write is running. A database in memory has no log, and PostgreSQL (`connection` null) none of
 * these, nor a call made inside a transaction (the outer one commits): work runs as it is.
 */
export async function withCheckpointAfter<T>(
  database: EntityManager | PragmaConnection | null,
  work: () => Promise<T>,
  checkpoint: (file: string) => unknown = checkpointInBackground,
): Promise<T> {
  const connection = database !== null && 'getConnection' in database ? pragmaConnection(database) : database;
  if (!connection) return work();
  const [main] = (await connection.all<{ name: string; file: string }>('pragma database_list')).filter(
    (d) => d.name === 'main',
  );
  const [mode] = await connection.all<{ journal_mode: string }>('pragma journal_mode');
  if (!main?.file || mode?.journal_mode.toLowerCase() !== 'wal') return work();
  const file = main.file;
  let state = deferred.get(file);
  if (!state) {
    const [setting] = await connection.all<{ wal_autocheckpoint: number }>('pragma wal_autocheckpoint');
    state = { writes: 0, pages: Math.trunc(setting?.wal_autocheckpoint ?? 1000) };
    deferred.set(file, state);
  }
  const held = state;
  held.writes += 1;
  await connection.run('pragma wal_autocheckpoint = 0');
  try {
    return await work();
  } finally {
    const restore = async () => {
      held.writes -= 1;
      if (held.writes > 0) return;
      deferred.delete(file);
      // A database closed meanwhile has no setting left to give back.
      await connection.run(`pragma wal_autocheckpoint = ${held.pages}`).catch(() => undefined);
    };
    void Promise.resolve()
      .then(() => checkpoint(file))
      .catch(() => undefined)
      .then(restore);
  }
}

/** Writes of `withCheckpointAfter` whose checkpoint has not answered yet (autocheckpoint is off while any is). */
export function writesAwaitingCheckpoint(): number {
  let writes = 0;
  for (const state of deferred.values()) writes += state.writes;
  return writes;
}
