import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { loadConfig, type AppConfig } from '../../src/server/config/config';

export interface TestServer {
  app: FastifyInstance;
  config: AppConfig;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  dataDir: string;
  close: () => Promise<void>;
}

/**
 * Starts the real server on a fresh temporary SQLite file, listening on port 0.
 * `env` takes the same variables as production (e.g. ACCESS_TOKEN_TTL: '2'); `logStream`
 * receives the JSON log lines.
 */
export async function startServer(env: Record<string, string> = {}, options: { logStream?: Writable } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env });
  // With a log stream the app's own logger (level, redaction, serializers) writes there; otherwise no logs.
  const app = await buildApp(config, options.logStream ? { logStream: options.logStream } : { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind a TCP port');
  return {
    app,
    config,
    url: `http://127.0.0.1:${address.port}`,
    dataDir,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
