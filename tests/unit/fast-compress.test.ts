import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fastCompress, LARGE_ANSWER_BYTES, THREAD_POOL_ANSWER_BYTES } from '../../src/server/http/compression';

/** JSON-like text of about `bytes` bytes, some of it not ASCII. */
function answer(bytes: number): Buffer {
  const row = '{"id":1,"description":"Café order 12","amount":-1250},';
  return Buffer.from(`[${row.repeat(Math.ceil(bytes / Buffer.byteLength(row)))}]`);
}

describe('fastCompress', () => {
  it("compresses answers under THREAD_POOL_ANSWER_BYTES on the caller's turn and larger ones on the thread pool, both decoding to the same bytes", async () => {
    for (const body of [answer(LARGE_ANSWER_BYTES), answer(THREAD_POOL_ANSWER_BYTES + 1024)]) {
      for (const encoding of ['br', 'gzip'] as const) {
        const result = fastCompress(encoding, body);
        expect(result instanceof Promise).toBe(body.length >= THREAD_POOL_ANSWER_BYTES);
        const compressed = await result;
        const decoded = encoding === 'br' ? zlib.brotliDecompressSync(compressed) : zlib.gunzipSync(compressed);
        expect(decoded.equals(body)).toBe(true);
        expect(compressed.length).toBeLessThan(body.length / 4);
      }
    }
  });
});
