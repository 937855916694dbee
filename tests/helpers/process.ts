import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { serverBundleOptions, workerEntryPoints } from '../../scripts/server-bundle-options.mjs';
import { TEST_PASSWORD_HASH_COST, TEST_REGISTRATIONS_PER_ADDRESS } from './password-cost';

/** A client folder that does not exist: test servers answer the API only unless told where a client is. */
export const NO_CLIENT = path.join(os.tmpdir(), 'bt-test-no-client');

/** Entry points bundled in this test process: source path -> bundle path. */
const bundles = new Map<string, string>();
const BUNDLE_DIR = path.resolve('node_modules/.cache/test-bundles', String(process.pid));

/**
 * A TypeScript entry point (e.g. src/server/main.ts) bundled the way `npm run build:server` bundles it (CommonJS,
 * packages external: scripts/server-bundle-options.mjs), from the current source, once per test process; answers the
 * bundle's path. A process started with `--import tsx` instead spent ~4-6 s of CPU on a busy machine loading the
 * server through tsx's module hooks; the bundle loads in about a second. The bundle lives under node_modules/.cache
 * so that its `require`s find the packages, and is removed when the test process exits.
 */
export function bundledEntry(entry: string): string {
  const known = bundles.get(entry);
  if (known) return known;
  if (bundles.size === 0) {
    mkdirSync(BUNDLE_DIR, { recursive: true });
    writeFileSync(path.join(BUNDLE_DIR, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
    process.once('exit', () => rmSync(BUNDLE_DIR, { recursive: true, force: true }));
  }
  const name = entry.replace(/\.ts$/, '').replace(/[^A-Za-z0-9]+/g, '-');
  buildSync({
    // The server's worker threads are bundled beside it, as `npm run build` puts them.
    entryPoints: { [name]: path.resolve(entry), ...workerEntryPoints },
    outdir: BUNDLE_DIR,
    ...serverBundleOptions,
  });
  const file = path.join(BUNDLE_DIR, `${name}.js`);
  bundles.set(entry, file);
  return file;
}

/**
 * Runs the real entry point (src/server/main.ts, bundled by bundledEntry) in its own process, for what a
 * process-wide setting decides: the umask it starts with, the user it runs as, how it refuses
 * to start. PORT=0; the address is read from the "listening" log line.
 */
export interface ServerProcess {
  child: ChildProcess;
  url: Promise<string>;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
  stop: () => Promise<void>;
}

export interface SpawnOptions {
  /** The umask the process starts with, e.g. 0o000. */
  umask?: number;
  /** Run as this user id (and group id); only possible when the tests run as root. */
  uid?: number;
  gid?: number;
}

export const NOBODY = { uid: 65534, gid: 65534 };

/**
 * Who the server process can run as to meet file permissions: ourselves when not root (root
 * ignores them), `nobody` when root and `nobody` can read the code and its packages, else null
 * (e.g. a checkout under /root): tests that need it say so and skip.
 */
export function unprivilegedUser(): { uid?: number; gid?: number } | null {
  if (process.getuid?.() !== 0) return {};
  const probe = spawnSync(
    process.execPath,
    ['-e', "require('node:fs').accessSync(process.argv[1]); require('fastify')", bundledEntry('src/server/main.ts')],
    {
      cwd: path.resolve('.'),
      uid: NOBODY.uid,
      gid: NOBODY.gid,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp' },
      timeout: 60_000,
    },
  );
  return probe.status === 0 ? NOBODY : null;
}

export function spawnServer(env: Record<string, string>, options: SpawnOptions = {}): ServerProcess {
  const entry = bundledEntry('src/server/main.ts');
  const umask = options.umask === undefined ? '' : `umask ${options.umask.toString(8).padStart(3, '0')}; `;
  const child = spawn('sh', ['-c', `${umask}exec "${process.execPath}" "${entry}"`], {
    cwd: path.resolve('.'),
    // No client (CLIENT_DIR names a folder that does not exist) unless env gives one: `npm test` builds dist/client meanwhile.
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: '/tmp',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      CLIENT_DIR: NO_CLIENT,
      PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
      REGISTRATIONS_PER_ADDRESS: TEST_REGISTRATIONS_PER_ADDRESS,
      ...env,
    },
    uid: options.uid,
    gid: options.gid,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let resolveUrl!: (url: string) => void;
  let rejectUrl!: (error: Error) => void;
  const url = new Promise<string>((resolve, reject) => {
    resolveUrl = resolve;
    rejectUrl = reject;
  });
  url.catch(() => undefined);
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
    if (match) resolveUrl(match[1]);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('exit', (code) => {
      rejectUrl(new Error(`server exited with ${code} before listening:\n${stderr}\n${stdout}`));
      resolve({ code, stdout, stderr });
    });
  });
  return {
    child,
    url,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** A process's peak resident memory so far, in MB: the kernel's high-water mark (VmHWM), which no moment escapes. */
export function peakRssMb(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error('no VmHWM in /proc/<pid>/status');
  return Number(match[1]) / 1024;
}
