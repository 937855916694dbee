/**
 * SQLite reads off the event loop: a worker thread with its own read-only connection to the
 * database file runs a search's count and its JSON statement and hands back the answer's bytes,
 * so the server's one thread only parses the request and sends the bytes: searches at once no
 * longer wait for one another's SQL on that one thread. WAL mode lets the worker read while the main connection writes, and a
 * read sees every transaction committed before it started (each read is its own read transaction,
 * so the count and the rows come from one snapshot).
 *
 * The worker is plain CommonJS text (`eval`, as wal-checkpoint.ts's), so the bundle needs no
 * second entry point; it registers none of the app's SQL functions (fold(), payee_key()), and a
 * read that needs them stays on the main connection (the caller decides). Threads start on the
 * first read and go after IDLE_MS without one.
 */
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { driverPath } from './wal-checkpoint';

/** A statement and its parameters (already as better-sqlite3 binds them: no booleans). */
export interface SqlStatement {
  sql: string;
  params: readonly unknown[];
}

/**
 * What a counted JSON read (SqliteReader.countedJson) runs: `count` answers one number; over `max` nothing more is read;
 * `rows` answers one row whose one column is a text (the rows' JSON objects joined with ',', or null for none).
 */
export interface CountedJsonRead {
  count: SqlStatement;
  rows: SqlStatement;
  max: number;
}

/** The count, and the JSON array's UTF-8 bytes (null when the count is over `max`). */
export interface CountedJsonAnswer {
  total: number;
  bytes: Buffer | null;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const cache = new Map();
const prepared = (sql) => {
  let statement = cache.get(sql);
  if (!statement) {
    statement = db.prepare(sql).pluck();
    if (cache.size >= 100) cache.clear();
    cache.set(sql, statement);
  }
  return statement;
};
const begin = db.prepare('begin');
const commit = db.prepare('commit');
parentPort.on('message', ({ id, count, rows, max }) => {
  try {
    let total;
    let bytes = null;
    begin.run();
    try {
      total = Number(prepared(count.sql).get(count.params));
      if (total === 0) bytes = Buffer.from('[]');
      // The array's text as a blob: its bytes come back in a buffer of their own, with no string on this thread's heap.
      else if (total <= max) bytes = prepared("select cast('[' || coalesce((" + rows.sql + "), '') || ']' as blob)").get(rows.params);
    } finally {
      commit.run();
    }
    if (bytes === null) return parentPort.postMessage({ id, total, bytes: null });
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    parentPort.postMessage({ id, total, bytes }, whole ? [bytes.buffer] : []);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error), code: error && error.code });
  }
});
`;

/** After this long without a read, a worker thread goes (it holds a connection and its own heap). */
const IDLE_MS = 30_000;

type Message = { id: number; total: number; bytes: Uint8Array | null } | { id: number; error: string; code?: string };

interface Thread {
  worker: Worker;
  waiting: Map<number, { resolve: (answer: CountedJsonAnswer) => void; reject: (error: Error) => void }>;
  idle: NodeJS.Timeout | null;
}

/** Worker threads reading one database file, up to `size`, each taking the next read when it has the fewest waiting. */
export class SqliteReader {
  private readonly threads: Thread[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    readonly file: string,
    private readonly size = defaultReaders(),
  ) {}

  /** Worker threads running now. */
  get running(): number {
    return this.threads.length;
  }

  /** Runs a counted JSON read on a worker thread. */
  countedJson(read: CountedJsonRead): Promise<CountedJsonAnswer> {
    if (this.closed) return Promise.reject(new Error('the database reader is closed'));
    const thread = this.pick();
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      thread.waiting.set(id, { resolve, reject });
      if (thread.idle) {
        clearTimeout(thread.idle);
        thread.idle = null;
      }
      thread.worker.postMessage({ id, ...read });
    });
  }

  /** Stops the threads (the app closing its database); waits for them to exit. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.splice(0).map((thread) => this.stop(thread)));
  }

  private pick(): Thread {
    let best: Thread | null = null;
    for (const thread of this.threads) if (!best || thread.waiting.size < best.waiting.size) best = thread;
    if (best && (best.waiting.size === 0 || this.threads.length >= this.size)) return best;
    return this.start();
  }

  private start(): Thread {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, driver: driverPath() } });
    // It keeps neither the process nor a test runner alive.
    worker.unref();
    const thread: Thread = { worker, waiting: new Map(), idle: null };
    const fail = (message: string) => {
      this.forget(thread);
      for (const { reject } of thread.waiting.values()) reject(new Error(message));
      thread.waiting.clear();
    };
    worker.on('message', (message: Message) => {
      const waiting = thread.waiting.get(message.id);
      thread.waiting.delete(message.id);
      if (waiting) {
        if ('error' in message) waiting.reject(Object.assign(new Error(message.error), { code: message.code }));
        else {
          const bytes =
            message.bytes && Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
          waiting.resolve({ total: message.total, bytes });
        }
      }
      if (thread.waiting.size === 0 && !thread.idle) {
        thread.idle = setTimeout(() => {
          this.forget(thread);
          void this.stop(thread);
        }, IDLE_MS);
        thread.idle.unref();
      }
    });
    // An error thrown in the worker arrives as a copy: its message, if it kept one.
    worker.on('error', (error: unknown) => fail(String((error as { message?: unknown } | null)?.message ?? error)));
    worker.on('exit', (code) => fail(`a database reader thread exited (${code})`));
    this.threads.push(thread);
    return thread;
  }

  private forget(thread: Thread): void {
    const at = this.threads.indexOf(thread);
    if (at >= 0) this.threads.splice(at, 1);
  }

  private async stop(thread: Thread): Promise<void> {
    if (thread.idle) clearTimeout(thread.idle);
    thread.idle = null;
    await thread.worker.terminate();
  }
}

/** One reader thread per core the main thread leaves (at least one, at most two). */
function defaultReaders(): number {
  return Math.max(1, Math.min(2, os.availableParallelism() - 1));
}

const readers = new Map<string, SqliteReader>();

/** The reader threads of a database file (one set per file in the process); null for a database in memory. */
export function sqliteReader(file: string): SqliteReader | null {
  if (file === '' || file === ':memory:' || file.startsWith('file:')) return null;
  const resolved = path.resolve(file);
  let reader = readers.get(resolved);
  if (!reader) readers.set(resolved, (reader = new SqliteReader(resolved)));
  return reader;
}

/** Stops the reader threads of a file (the app closing its database). */
export async function closeSqliteReader(file: string): Promise<void> {
  const resolved = path.resolve(file);
  const reader = readers.get(resolved);
  if (!reader) return;
  readers.delete(resolved);
  await reader.close();
}
