/**
 * An answer whose JSON text is already written (by the database, see jsonArrayAggSql in
 * src/server/db/sql.ts): a REST handler returns it and the route sends the text as it is, with
 * the JSON content type, instead of stringifying objects built row by row.
 */
export class RawJson {
  /** The JSON text, or its UTF-8 bytes (a search read on a worker thread, see read-worker.ts). */
  constructor(readonly text: string | Buffer) {}
}

/** An object's JSON with some of its values already JSON text: keys in the order given. */
export function jsonWithRawParts(parts: readonly (readonly [string, unknown])[]): RawJson {
  const body = parts.map(([key, value]) => `${JSON.stringify(key)}:${value instanceof RawJson ? value.text.toString() : JSON.stringify(value)}`).join(',');
  return new RawJson(`{${body}}`);
}
