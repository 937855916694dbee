/**
 * The production server bundle (esbuild, as `npm run build`) in its own process on a fresh data
 * folder, so its memory is measured as a user's server would show it. BENCH_SERVER_ARGS adds node
 * flags (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), `nodeArgs` more; `script` runs a file already built
 * (e.g. dist/server/main.js) instead of bundling src/server/main.ts. The server never outlives the benchmark,
 * even one stopped half-way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { serverBundleOptions, workerEntryPoints } from '../scripts/server-bundle-options.mjs';
import { freePort } from '../tests/helpers/ports';
import { TEST_REGISTRATIONS_PER_ADDRESS } from '../tests/helpers/password-cost';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  databaseFile: string;
  close: () => Promise<void>;
}

export interface ServerProcessOptions {
  nodeArgs?: readonly string[];
  script?: string;
}

export async function startServerProcess(
  env: Record<string, string> = {},
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bt-bench-'));
  const script = options.script ?? path.resolve('bench/.data/server/main.js');
  // Bundled as production bundles it (CommonJS; scripts/server-bundle-options.mjs).
  if (!options.script) {
    mkdirSync(path.dirname(script), { recursive: true });
    writeFileSync(path.join(path.dirname(script), 'package.json'), '{ "type": "commonjs" }\n');
    await build({ entryPoints: ['src/server/main.ts'], outfile: script, ...serverBundleOptions });
    // The worker threads beside it, as `npm run build` puts them.
    await build({ entryPoints: workerEntryPoints, outdir: path.dirname(script), ...serverBundleOptions });
  }
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? []), ...(options.nodeArgs ?? []), script],
    {
      env: {
        ...process.env,
        DATA_DIR: dir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
        // Benchmarks register many users from one address; the registration throttle is not what they measure.
        REGISTRATIONS_PER_ADDRESS: TEST_REGISTRATIONS_PER_ADDRESS,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const stop = () => child.kill('SIGTERM');
  process.once('exit', stop);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 400) throw new Error('server did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child,
    databaseFile: path.join(dir, 'budget-tracker.sqlite'),
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.off('exit', stop);
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Peak resident set size of a process so far (Linux: VmHWM), in bytes. */
export function peakRss(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/**
 * CPU time (user + system) a process has used so far, in ms (Linux: /proc/<pid>/stat). On a
 * shared, loaded machine a server's CPU time per request varies far less than its wall time.
 */
export function cpuTimeMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/**
 * CPU time (user + system, ms) of a process's main thread alone (Linux: /proc/<pid>/task/<pid>/stat):
 * the event loop's share, without worker threads (e.g. the import's background WAL checkpoint), V8's
 * helper threads and the thread pool.
 */
export function mainThreadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuMs(file: string): number {
  const stat = readFileSync(file, 'utf8');
  // Fields after the command name (which may hold spaces) start at ') '; utime and stime are the 12th and 13th of them.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
