/**
 * A reader thread (pool.ts starts it): a read-only connection to the database file that answers
 * counted JSON reads. Each read is its own read transaction, so the count and the rows come from
 * one snapshot; WAL mode lets it read while the main connection writes.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { ReadAnswer, ReadRequest } from './messages';

const { file } = workerData as { file: string };
const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const begin = db.prepare('begin');
const commit = db.prepare('commit');

/** Statements kept by their text: a search's statements differ only by its filters, and preparing one costs as much as a small read. */
const prepared = new Map<string, Database.Statement>();
const KEPT_STATEMENTS = 64;

function statement(sql: string): Database.Statement {
  let kept = prepared.get(sql);
  if (!kept) {
    if (prepared.size >= KEPT_STATEMENTS) prepared.delete(prepared.keys().next().value as string);
    kept = db.prepare(sql).pluck();
    prepared.set(sql, kept);
  }
  return kept;
}

function read({ count, rows, max }: ReadRequest): { total: number; json: Buffer | null } {
  begin.run();
  try {
    const total = Number(statement(count.sql).get(count.params));
    if (total === 0) return { total, json: Buffer.from('[]') };
    if (total > max) return { total, json: null };
    return { total, json: statement(rows.sql).get(rows.params) as Buffer };
  } finally {
    commit.run();
  }
}

parentPort?.on('message', (request: ReadRequest) => {
  let answer: ReadAnswer;
  try {
    const { total, json } = read(request);
    answer = { id: request.id, total, json };
  } catch (error) {
    const { message, code } = error as { message?: unknown; code?: unknown };
    answer = { id: request.id, error: String(message ?? error), code: typeof code === 'string' ? code : undefined };
  }
  // The bytes move to the main thread rather than being copied when they fill their own buffer.
  const json = 'json' in answer ? answer.json : null;
  const whole = json !== null && json.byteOffset === 0 && json.byteLength === json.buffer.byteLength;
  parentPort?.postMessage(answer, whole ? [json.buffer as ArrayBuffer] : []);
});
