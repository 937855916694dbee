/**
 * The per-request cost of checking that an access token's sign-in is still live (goal: well under
 * 0.1 ms a request): the cached check against a floor of one Map lookup measured
 * in the same run, and a whole signed-in request (GET /api/auth/me through app.inject) against
 * a public one (/api/auth/status) as a second floor.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config/config';
import { SignIns } from '../src/server/modules/auth/sign-ins';
import { median } from './stats';

function perCallMicros(calls: number, fn: () => unknown): number {
  const rounds: number[] = [];
  for (let round = 0; round < 7; round += 1) {
    const start = performance.now();
    for (let i = 0; i < calls; i += 1) fn();
    rounds.push(((performance.now() - start) * 1000) / calls);
  }
  return median(rounds);
}

export default async function run(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bt-bench-auth-'));
  const app = await buildApp(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }), { logger: false });
  try {
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: 'bench', password: 'bench-password' },
    });
    const { accessToken } = registered.json<{ accessToken: string }>();
    const sid = (JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()) as { sid: string }).sid;

    const signIns = new SignIns(app.orm);
    await signIns.liveUser(sid);
    const floorMap = new Map([[sid, { userId: 1, live: true, checkedAt: Date.now() }]]);
    const floor = perCallMicros(200_000, () => floorMap.get(sid));
    let pending: Promise<unknown> = Promise.resolve();
    const check = perCallMicros(200_000, () => {
      pending = signIns.liveUser(sid);
    });
    await pending;
    console.log(
      `sign-in liveness check (cached): ${check.toFixed(3)} µs a request (${(check / floor).toFixed(1)}x a Map lookup of ${floor.toFixed(3)} µs)`,
    );

    const inject = async (url: string, token?: string) => {
      const times: number[] = [];
      for (let i = 0; i < 400; i += 1) {
        const start = performance.now();
        await app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
        times.push(performance.now() - start);
      }
      return median(times.slice(50));
    };
    const publicRequest = await inject('/api/auth/status');
    const sessionRequest = await inject('/api/auth/me', accessToken);
    console.log(
      `signed-in request (GET /api/auth/me): ${(sessionRequest * 1000).toFixed(0)} µs, ${(sessionRequest / publicRequest).toFixed(2)}x a public one (GET /api/auth/status, ${(publicRequest * 1000).toFixed(0)} µs)`,
    );
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
