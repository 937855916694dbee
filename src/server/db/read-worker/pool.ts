/**
 * SQLite searches off the event loop: worker threads (thread.ts), each with its own read-only
 * connection to the database file, run a search's count and JSON statement and hand back the
 * answer's bytes, so the server's one thread only parses the request and sends the bytes, and
 * searches at once do not wait for each other's SQL on that thread. Threads start on the first
 * read and go after IDLE_MS without one. docs/performance.md tells what this buys.
 */
import type { EntityManager } from '@mikro-orm/knex';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CountedJsonRead, ReadAnswer } from './messages';

/** The count, and the JSON array's UTF-8 bytes (null when the count is over `max`). */
export interface CountedJsonAnswer {
  total: number;
  json: Buffer | null;
}

/** After this long without a read, a thread goes (it holds a connection and some memory). */
const IDLE_MS = 30_000;

/** The built thread's file name, beside the server's bundle (scripts/server-bundle-options.mjs). */
export const READ_WORKER_FILE = 'read-worker.js';

let sourceBuild: string | null = null;

/**
 * The thread's script: beside the running bundle (`npm run build`, the tests' and benchmarks'
 * server processes), else (a server run from the TypeScript sources) built from thread.ts once.
 */
function threadScript(): string {
  const beside = path.join(path.dirname(process.argv[1] ?? ''), READ_WORKER_FILE);
  if (existsSync(beside)) return beside;
  if (sourceBuild) return sourceBuild;
  const dir = path.resolve('node_modules/.cache/read-worker', String(process.pid));
  mkdirSync(dir, { recursive: true });
  const out = path.join(dir, 'read-worker.cjs');
  // esbuild is a development dependency: only a server run from the sources gets here.
  const { buildSync } = createRequire(path.resolve('package.json'))('esbuild') as typeof import('esbuild');
  buildSync({
    entryPoints: [path.resolve('src/server/db/read-worker/thread.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    logLevel: 'warning',
  });
  return (sourceBuild = out);
}

interface Thread {
  worker: Worker;
  waiting: Map<number, { resolve: (answer: CountedJsonAnswer) => void; reject: (error: Error) => void }>;
  idle: NodeJS.Timeout | null;
}

/** Reader threads of one database file, up to `size`, each taking the next read when it has the fewest waiting. */
export class SqliteReader {
  private readonly threads: Thread[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    readonly file: string,
    private readonly size = Math.max(1, Math.min(2, os.availableParallelism() - 1)),
  ) {}

  /** Threads running now. */
  get running(): number {
    return this.threads.length;
  }

  /** Runs a counted JSON read on a reader thread. */
  countedJson(read: CountedJsonRead): Promise<CountedJsonAnswer> {
    if (this.closed) return Promise.reject(new Error('the database reader is closed'));
    const thread = this.pick();
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      thread.waiting.set(id, { resolve, reject });
      if (thread.idle) clearTimeout(thread.idle);
      thread.idle = null;
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
    const worker = new Worker(threadScript(), { workerData: { file: this.file } });
    // It keeps neither the process nor a test runner alive.
    worker.unref();
    const thread: Thread = { worker, waiting: new Map(), idle: null };
    worker.on('message', (answer: ReadAnswer) => this.answered(thread, answer));
    // An error thrown in the worker arrives as a copy: its message, if it kept one.
    worker.on('error', (error: unknown) =>
      this.fail(thread, String((error as { message?: unknown } | null)?.message ?? error)),
    );
    worker.on('exit', (code) => this.fail(thread, `a database reader thread exited (${code})`));
    this.threads.push(thread);
    return thread;
  }

  private answered(thread: Thread, answer: ReadAnswer): void {
    const waiting = thread.waiting.get(answer.id);
    thread.waiting.delete(answer.id);
    if (waiting) {
      if ('error' in answer) waiting.reject(Object.assign(new Error(answer.error), { code: answer.code }));
      else {
        const { json } = answer;
        waiting.resolve({
          total: answer.total,
          json: json && Buffer.from(json.buffer, json.byteOffset, json.byteLength),
        });
      }
    }
    if (thread.waiting.size > 0 || thread.idle) return;
    thread.idle = setTimeout(() => {
      this.forget(thread);
      void this.stop(thread);
    }, IDLE_MS);
    thread.idle.unref();
  }

  private fail(thread: Thread, message: string): void {
    this.forget(thread);
    for (const { reject } of thread.waiting.values()) reject(new Error(message));
    thread.waiting.clear();
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

const readers = new Map<string, SqliteReader>();

/** The reader threads of a database file (one set per file in the process); null for a database in memory. */
export function sqliteReader(file: string): SqliteReader | null {
  if (file === '' || file === ':memory:' || file.startsWith('file:')) return null;
  const resolved = path.resolve(file);
  let reader = readers.get(resolved);
  if (!reader) readers.set(resolved, (reader = new SqliteReader(resolved)));
  return reader;
}

/** The reader threads of the SQLite file `em` talks to. */
export function readerOf(em: EntityManager): SqliteReader | null {
  return sqliteReader(String(em.config.get('dbName')));
}

/** Stops the reader threads of a file (the app closing its database). */
export async function closeSqliteReader(file: string): Promise<void> {
  const resolved = path.resolve(file);
  const reader = readers.get(resolved);
  if (!reader) return;
  readers.delete(resolved);
  await reader.close();
}
