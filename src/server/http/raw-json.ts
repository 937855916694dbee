/**
 * An answer whose JSON text is already written (by the database, see jsonObjectSql in
 * src/server/db/sql.ts): a REST handler returns it and the route sends the text as it is, with
 * the JSON content type, instead of stringifying objects built row by row.
 */
export class RawJson {
  /** The JSON text, or its UTF-8 bytes (a search read on a worker thread, see read-worker.ts). */
  constructor(readonly text: string | Buffer) {}
}

/**
 * JSON already written, as UTF-8 bytes in pieces that follow one another (a large part read from
 * the database as bytes, see TextAggregate.bytes in src/server/db/sql.ts). The route sends them
 * joined into one buffer: a many-megabyte answer is never decoded into a JavaScript string,
 * flattened, measured and encoded back to UTF-8 on its way out.
 */
export class RawJsonBytes {
  constructor(readonly chunks: readonly Buffer[]) {}

  /** The JSON as one buffer. */
  bytes(): Buffer {
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
  }

  /** The JSON as text (for an answer that parses it). */
  text(): string {
    return this.bytes().toString('utf8');
  }
}

/** An object's JSON with some of its values already JSON text: keys in the order given. */
export function jsonWithRawParts(parts: readonly (readonly [string, unknown])[]): RawJson {
  const body = parts
    .map(
      ([key, value]) =>
        `${JSON.stringify(key)}:${value instanceof RawJson ? value.text.toString() : JSON.stringify(value)}`,
    )
    .join(',');
  return new RawJson(`{${body}}`);
}

/** jsonWithRawParts as bytes: values already JSON bytes (RawJsonBytes) are copied as they are, never decoded. */
export function jsonBytesWithRawParts(parts: readonly (readonly [string, unknown])[]): RawJsonBytes {
  const chunks: Buffer[] = [];
  let text = '{';
  parts.forEach(([key, value], i) => {
    text += `${i === 0 ? '' : ','}${JSON.stringify(key)}:`;
    const bytes =
      value instanceof RawJsonBytes
        ? value.chunks
        : value instanceof RawJson && typeof value.text !== 'string'
          ? [value.text]
          : null;
    if (bytes) {
      chunks.push(Buffer.from(text), ...bytes);
      text = '';
    } else text += value instanceof RawJson ? (value.text as string) : JSON.stringify(value);
  });
  chunks.push(Buffer.from(`${text}}`));
  return new RawJsonBytes(chunks);
}
