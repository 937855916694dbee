import http from 'node:http';
import { setTimeout as later } from 'node:timers/promises';
import zlib from 'node:zlib';
import { writesAwaitingCheckpoint } from '../src/server/db/wal-checkpoint';

/** Small helpers shared by the benchmarks. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function timeMedian(runs: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * Until every write's background WAL checkpoint (a worker thread of this process) has answered, asked every 5 ms
 * (a busy wait would take a core): so one timed write's checkpoint does not run inside the next one's window.
 */
export async function checkpointsSettled(): Promise<void> {
  while (writesAwaitingCheckpoint() > 0) await later(5);
}

export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

/** Kept-alive connections for getBytes, as a browser keeps them. */
const agent = new http.Agent({ keepAlive: true });

/**
 * A GET as the benchmarks' client makes it, on node:http: the answer is read whole and
 * decompressed (as a browser would, natively) but neither decoded nor parsed, so a figure is the
 * server's time and not the benchmark's own work on the same cores (fetch and JSON.parse of a
 * month's search cost the client several times what this does). Answers the status, the X-Total-Count header (a search's row count) and the bytes.
 * `encoding` is the Accept-Encoding sent (`identity` for none).
 */
export function getBytes(
  url: string,
  token: string,
  encoding = 'br, gzip',
): Promise<{ status: number; total: number; bytes: number }> {
  return requestBytes('GET', url, token, { encoding });
}

/** Any request as getBytes makes a GET; `json` is sent as the request's JSON body. */
export function requestBytes(
  method: string,
  url: string,
  token: string,
  { encoding = 'br, gzip', json }: { encoding?: string; json?: unknown } = {},
): Promise<{ status: number; total: number; bytes: number }> {
  const body = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
  const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${token}`, 'accept-encoding': encoding };
  if (body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': body.length });
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        try {
          const body = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const bytes =
            encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
          resolve({
            status: res.statusCode ?? 0,
            total: Number(res.headers['x-total-count']),
            bytes: bytes.byteLength,
          });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}
