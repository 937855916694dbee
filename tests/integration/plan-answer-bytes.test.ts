/**
 * A kept plan answer (plan.service.ts) is sent as the bytes it was first sent as: its JSON is written once and
 * each encoding's compressed form made once, until a write changes the month; the bytes decode to the plan the
 * service answers (tRPC's door computes it the same way). On both databases (PostgreSQL keys its kept answers by
 * the snapshot of committed transactions, db/data-version.ts).
 */
import { request } from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlanDto } from '../../src/shared/schemas/plan';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
let user: ApiUser;
const MONTH = '2024-03';

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  // Enough categories for the answer to be compressed (over 1 KiB).
  for (let i = 1; i <= 12; i += 1) ok(await user.post('/api/categories', { name: `Spending ${i}`, kind: 'expense' }));
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.close();
});

interface Raw {
  encoding: string | undefined;
  body: Buffer;
}

/** The plan's bytes as sent (fetch would undo the compression). */
function rawPlan(encoding: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/api/plan/${MONTH}`,
      { headers: { authorization: `Bearer ${user.token}`, 'accept-encoding': encoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`plan: ${res.statusCode}`));
          else resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function decoded(raw: Raw): PlanDto {
  const text =
    raw.encoding === 'br'
      ? zlib.brotliDecompressSync(raw.body)
      : raw.encoding === 'gzip'
        ? zlib.gunzipSync(raw.body)
        : raw.body;
  return JSON.parse(text.toString('utf8')) as PlanDto;
}

/** What decides whether a kept answer still holds: nothing on SQLite (its own tests hold the writes still). */
async function snapshot(): Promise<string> {
  if (server.database !== 'postgresql') return '';
  const [row] = await server.sql<{ s: string }>('select pg_current_snapshot()::text as s');
  return row?.s ?? '';
}

describe("a kept plan answer's bytes", () => {
  it('are compressed once per encoding while nothing is written, and anew after a write', async () => {
    await rawPlan('identity');
    const gzip = vi.spyOn(zlib, 'gzipSync');
    const brotli = vi.spyOn(zlib, 'brotliCompressSync');

    // On PostgreSQL "nothing written" means no commit anywhere on the server (the key is the snapshot, and other
    // test files write to their own databases meanwhile): the counts are checked over a stretch the snapshot held.
    let series: Raw[] = [];
    let quiet = false;
    for (let attempt = 0; attempt < 50 && !quiet; attempt += 1) {
      gzip.mockClear();
      brotli.mockClear();
      const before = await snapshot();
      series = [await rawPlan('gzip'), await rawPlan('gzip'), await rawPlan('br'), await rawPlan('br')];
      if ((await snapshot()) !== before) continue;
      expect(gzip.mock.calls.length).toBeLessThanOrEqual(1);
      expect(brotli.mock.calls.length).toBeLessThanOrEqual(1);
      expect(series[1]?.body.equals(series[0]?.body ?? Buffer.alloc(0))).toBe(true);
      expect(series[3]?.body.equals(series[2]?.body ?? Buffer.alloc(0))).toBe(true);
      quiet = true;
    }
    // SQLite is always quiet here; a PostgreSQL server busy with other databases throughout only has its bytes checked.
    if (server.database !== 'postgresql') expect(quiet).toBe(true);
    const [first, , firstBr] = series as [Raw, Raw, Raw, Raw];
    const plain = await rawPlan('identity');
    expect([first.encoding, firstBr.encoding, plain.encoding]).toEqual(['gzip', 'br', undefined]);
    const expected = data(await user.trpc.plan.get.query({ month: MONTH }));
    for (const raw of [first, firstBr, plain]) expect(decoded(raw)).toEqual(expected);

    const category = expected.categories[0].category;
    ok(await user.put(`/api/plan/${MONTH}/assigned`, { category, amount: 12_345 }));
    gzip.mockClear();
    const after = await rawPlan('gzip');
    expect(gzip).toHaveBeenCalledTimes(1);
    const changed = decoded(after);
    expect(changed.categories.find((row) => row.category === category)?.assigned).toBe(12_345);
    expect(changed).toEqual(data(await user.trpc.plan.get.query({ month: MONTH })));
  });
});
