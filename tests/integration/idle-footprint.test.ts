import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../../src/server/db/pg-scratch';
import { spawnServer } from '../helpers/process';
import { pgAdminUrl, testDatabase } from '../helpers/server';

/**
 * Idle memory. The first number or date formatted through ICU (Intl.NumberFormat,
 * toLocaleString...) maps about 6 MB of Node.js's built-in ICU data into the process, for good. A server that has
 * only started and answered its health check has formatted nothing for anyone, so its start-up must not format
 * either: e.g. a message built at module level from a formatted amount. Each formatting entry point is wrapped
 * in the server process (a preload given through NODE_OPTIONS) and reports its first use with where it came from.
 */
const TRAP = `
const report = (name) => process.stderr.write('LOCALE-FORMAT ' + name + ' ' + (new Error().stack.split('\\n')[3] || '').trim() + '\\n');
for (const name of ['NumberFormat', 'DateTimeFormat', 'PluralRules', 'RelativeTimeFormat', 'ListFormat', 'DisplayNames']) {
  const original = Intl[name];
  Intl[name] = new Proxy(original, {
    construct(target, args) { report('Intl.' + name); return Reflect.construct(target, args); },
    apply(target, self, args) { report('Intl.' + name); return Reflect.apply(target, self, args); },
  });
}
for (const [proto, method, label] of [[Number.prototype, 'toLocaleString', 'Number'], [BigInt.prototype, 'toLocaleString', 'BigInt'], [Date.prototype, 'toLocaleString', 'Date'], [Date.prototype, 'toLocaleDateString', 'Date'], [Date.prototype, 'toLocaleTimeString', 'Date']]) {
  const original = proto[method];
  proto[method] = function (...args) { report(label + '.' + method); return original.apply(this, args); };
}
`;

describe('a started, idle server', () => {
  let dir: string;
  let scratch: ScratchDatabase | null = null;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bt-idle-'));
    writeFileSync(path.join(dir, 'trap.cjs'), TRAP);
    writeFileSync(path.join(dir, 'formats.cjs'), "(1234).toLocaleString('en-US');\n");
    if (testDatabase === 'postgresql') scratch = await createScratchDatabase('bt_test', pgAdminUrl);
  });
  afterAll(async () => {
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const server = spawnServer({
      DATA_DIR: path.join(dir, 'data'),
      NODE_OPTIONS: `--require ${path.join(dir, 'trap.cjs')}`,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    });
    try {
      const health = await fetch(`${await server.url}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      await server.stop();
    }
    return (await server.exited).stderr;
  };

  it('has formatted no number or date through ICU, on a new database or a current one', async () => {
    const first = await start();
    const again = await start();
    expect(first.split('\n').filter((line) => line.startsWith('LOCALE-FORMAT'))).toEqual([]);
    expect(again.split('\n').filter((line) => line.startsWith('LOCALE-FORMAT'))).toEqual([]);
  });

  it('reports formatting when it happens (the trap works)', async () => {
    const server = spawnServer({
      DATA_DIR: path.join(dir, 'data'),
      NODE_OPTIONS: `--require ${path.join(dir, 'trap.cjs')} --require ${path.join(dir, 'formats.cjs')}`,
    });
    await server.url;
    await server.stop();
    const { stderr } = await server.exited;
    expect(stderr).toContain('LOCALE-FORMAT Number.toLocaleString');
  });
});
