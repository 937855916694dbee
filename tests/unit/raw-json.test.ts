import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { joinJsonRowBytes, joinJsonRows, jsonArrayBytes } from '../../src/server/db/sql';
import { jsonBytesWithRawParts, jsonWithRawParts, RawJson, RawJsonBytes } from '../../src/server/http/raw-json';
import { countedRows } from '../../src/server/modules/budgets/budgets.query';
import { rawJsonPlaceholder, spliceRawJson } from '../../src/server/trpc/raw-json';

/**
 * The overview's REST answer is assembled as UTF-8 bytes: the transactions' JSON comes
 * from the database as bytes and is copied in as it is. The bytes must be exactly what
 * JSON.stringify writes of the same object, whatever the text holds.
 */
const AWKWARD = { name: 'Café – ünïcödé 😀 中文 "q" \\ \u2028\n', n: -12, list: [1, null, true] };

describe('jsonBytesWithRawParts', () => {
  it('writes the bytes of JSON.stringify, with raw parts as text or bytes, in the keys order given', () => {
    const rows = [AWKWARD, { id: 2, text: 'plain' }];
    const rowsText = JSON.stringify(rows);
    const expected = JSON.stringify({ budget: AWKWARD, rows, tail: { a: [] }, text: rows });
    const answer = jsonBytesWithRawParts([
      ['budget', AWKWARD],
      ['rows', new RawJsonBytes(jsonArrayBytes(Buffer.from(rowsText.slice(1, -1))))],
      ['tail', { a: [] }],
      ['text', new RawJson(rowsText)],
    ]);
    expect(answer.bytes().equals(Buffer.from(expected))).toBe(true);
    expect(answer.text()).toBe(expected);
    expect(jsonWithRawParts([['rows', new RawJson(rowsText)]]).text).toBe(JSON.stringify({ rows }));
  });

  it('writes an empty array for an aggregate of no rows, and an object of one raw part', () => {
    expect(jsonArrayBytes(null).map(String).join('')).toBe('[]');
    expect(jsonArrayBytes(Buffer.alloc(0)).map(String).join('')).toBe('[]');
    expect(jsonBytesWithRawParts([['rows', new RawJsonBytes(jsonArrayBytes(null))]]).text()).toBe('{"rows":[]}');
    expect(jsonBytesWithRawParts([]).text()).toBe('{}');
  });
});

describe('joinJsonRowBytes', () => {
  it("writes joinJsonRows' text as UTF-8 bytes, rows of any script, null rows left out", () => {
    const cases = [
      [],
      [{ json: null }],
      [{ json: '{"d":"Café 😀"}' }],
      [{ json: null }, { json: '1' }, { json: null }, { json: '"é\\u0000"' }, { json: '{"d":"東京"}' }],
    ];
    for (const rows of cases) {
      const bytes = joinJsonRowBytes(rows);
      expect(bytes.toString('utf8')).toBe(joinJsonRows(rows));
      expect(bytes.length).toBe(Buffer.byteLength(joinJsonRows(rows)));
    }
  });
});

describe('countedRows', () => {
  const key = (category: number | null) => (category === null ? 'uncategorized' : `c${category}`);

  it('reads the aggregate\'s "id:categoryId" entries in order, an empty category as none', () => {
    expect(countedRows(null, key)).toEqual([]);
    expect(countedRows('', key)).toEqual([]);
    expect(countedRows('7:', key)).toEqual([{ id: 7, categoryKey: 'uncategorized' }]);
    expect(countedRows('12:345,6:,70:0,9007199254740991:99,3:', key)).toEqual([
      { id: 12, categoryKey: 'c345' },
      { id: 6, categoryKey: 'uncategorized' },
      { id: 70, categoryKey: 'c0' },
      { id: 9007199254740991, categoryKey: 'c99' },
      { id: 3, categoryKey: 'uncategorized' },
    ]);
  });
});

describe('tRPC placeholders for JSON bytes', () => {
  const request = (headers: Record<string, string> = {}) => ({ headers }) as unknown as FastifyRequest;

  it("puts each placeholder's bytes in its place, as often as JSON.stringify wrote it, once per request", () => {
    const req = request();
    const rows = Buffer.from(JSON.stringify([AWKWARD]));
    const first = rawJsonPlaceholder(req, [rows]);
    const second = rawJsonPlaceholder(req, [Buffer.from('['), Buffer.from('1,2'), Buffer.from(']')]);
    expect(first).not.toBe(second);
    const body = Buffer.from(
      JSON.stringify([{ result: { data: { a: first, b: 'x' } } }, { result: { data: second } }]),
    );
    expect(spliceRawJson(req, body).toString()).toBe(
      JSON.stringify([{ result: { data: { a: [AWKWARD], b: 'x' } } }, { result: { data: [1, 2] } }]),
    );
    // Spliced once: the request holds no placeholders any more.
    expect(spliceRawJson(req, body)).toBe(body);
  });

  it('leaves an answer without its placeholders as it is (a refusal), and gives none to an answer streamed as JSON lines', () => {
    const req = request();
    expect(rawJsonPlaceholder(req, [Buffer.from('[]')])).toMatch(/^bt-raw-json:[0-9a-f]{32}:0$/);
    const refusal = Buffer.from('{"error":{"message":"Not found"}}');
    expect(spliceRawJson(req, refusal)).toBe(refusal);
    expect(rawJsonPlaceholder(request({ 'trpc-accept': 'application/jsonl' }), [Buffer.from('[]')])).toBeNull();
  });
});
