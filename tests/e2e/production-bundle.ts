import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createServer } from 'node:net';
import type { Readable } from 'node:stream';
import { TEST_PASSWORD_HASH_COST } from '../helpers/password-cost';

/** The production entry point running in its own process: `node dist/server/main.js`, as `npm start` runs it. */
export interface RunningBundle {
  child: ChildProcessByStdio<null, Readable, Readable>;
  url: string;
  /** Everything it has written to stdout and stderr so far. */
  output: () => string;
  /** Its exit code once it has exited (null when killed by a signal). */
  exited: Promise<number | null>;
}

export interface BundleOptions {
  dataDir: string;
  /** Node flags before the entry point (e.g. `--require` a preload). */
  nodeArgs?: string[];
  env?: Record<string, string>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server on `dataDir` and waits until /api/health answers. A loaded machine may take a while,
 * so it waits up to a minute, and fails at once with the server's output when the process exits first.
 */
export async function startBundle({ dataDir, nodeArgs = [], env = {} }: BundleOptions): Promise<RunningBundle> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, 'dist/server/main.js'], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  while (child.exitCode === null && child.signalCode === null) {
    const healthy = await fetch(`${url}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (healthy) return { child, url, output: () => output, exited };
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${output}`);
}
