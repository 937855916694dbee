import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { watchLoopTurns } from './loop-turns';

/**
 * Attacks that try to hold a server's event loop: the attack runs while GET /api/health is asked over and over
 * (every answer must be 200), and the longest stretch the event loop went without a turn is measured in CPU time
 * (see loop-turns.ts: the server runs in this process). Bodies are encoded before the watch starts and sent as
 * raw bytes: fetch would clone and pull them through web streams in this very thread, and the watch would charge
 * that to the server.
 */

/**
 * The longest stretch of work allowed between two turns of the event loop, in CPU milliseconds. Steps of
 * work take a few milliseconds; GC threads and the probing client share the figure, hence room.
 */
export const LOOP_TURN_BOUND_CPU_MS = 150;

export interface RawAnswer {
  status: number;
  body: any;
}

/** Sends bytes already encoded (see above) and reads the answer as JSON. */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: string | Uint8Array; contentType?: string },
): Promise<RawAnswer> {
  const url = new URL(`${baseUrl}${path}`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.body !== undefined
            ? {
                'content-type': options.contentType ?? 'application/json',
                'content-length': Buffer.byteLength(options.body),
              }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let body: unknown = text;
          try {
            body = JSON.parse(text || '{}');
          } catch {
            // Not JSON: the text as it is.
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A multipart upload encoded to bytes, with its content type. */
export async function encodedForm(
  baseUrl: string,
  file: Uint8Array | string,
  fields: Record<string, string>,
  fileName: string,
): Promise<{ bytes: Uint8Array; contentType: string }> {
  const body = new FormData();
  body.append('file', new Blob([file as BlobPart]), fileName);
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  const request = new Request(baseUrl, { method: 'POST', body });
  return { bytes: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

export interface Probed<T> {
  value: T;
  /** The longest stretch without a turn of the event loop while the attack ran, in CPU ms. */
  longestTurnCpuMs: number;
  /** How many health checks were answered meanwhile. */
  probes: number;
}

/** Runs `attack` while asking GET /api/health over and over until it settles; every health answer must be 200. */
export async function whileProbingHealth<T>(baseUrl: string, attack: () => Promise<T>): Promise<Probed<T>> {
  const watch = watchLoopTurns();
  let done = false;
  // Read through a call: `done` is set in a callback, which control-flow narrowing cannot follow.
  const isDone = () => done;
  const running = attack().finally(() => {
    done = true;
  });
  let probes = 0;
  while (!isDone()) {
    const res = await rawRequest(baseUrl, 'GET', '/api/health', {});
    expect(res.status).toBe(200);
    probes += 1;
  }
  const value = await running;
  const { longestTurnCpuMs } = watch.stop();
  return { value, longestTurnCpuMs, probes };
}
