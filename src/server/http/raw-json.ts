/**
 * A REST answer whose JSON is already written (the read model's JSON of many transactions): the
 * route sends its bytes as they are, with the JSON content type, instead of parsing them into
 * objects only to stringify them again.
 */
export class RawJson {
  /**
   * `kept`: the same bytes answer many requests (a kept answer that is never changed in place), so their compressed
   * forms are kept with them (compression.ts) instead of made again on every send.
   */
  constructor(
    readonly bytes: Buffer,
    readonly kept = false,
  ) {}
}

/** An object's JSON, keys in the order given, with RawJson values copied in as they are. */
export function jsonWithRawParts(parts: readonly (readonly [string, unknown])[]): RawJson {
  const chunks: Buffer[] = [];
  let text = '{';
  parts.forEach(([key, value], i) => {
    text += `${i === 0 ? '' : ','}${JSON.stringify(key)}:`;
    if (value instanceof RawJson) {
      chunks.push(Buffer.from(text), value.bytes);
      text = '';
    } else text += JSON.stringify(value);
  });
  chunks.push(Buffer.from(`${text}}`));
  return new RawJson(Buffer.concat(chunks));
}

/** A JSON array of RawJson items. */
export function jsonArrayOfRaw(items: readonly RawJson[]): RawJson {
  const chunks: Buffer[] = [Buffer.from('[')];
  items.forEach((item, i) => chunks.push(...(i === 0 ? [] : [Buffer.from(',')]), item.bytes));
  chunks.push(Buffer.from(']'));
  return new RawJson(Buffer.concat(chunks));
}
