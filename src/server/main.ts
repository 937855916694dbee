// First: packages loaded after it are compiled through Node.js's on-disk cache (Node.js 22.1+).
import './compile-cache';
import { setFlagsFromString } from 'node:v8';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { ConfigError, loadConfig, loadDotEnv } from './config/config';
import { DatabaseRoleError } from './db/app-database';
import { StorageError, usePrivateUmask } from './db/storage';

/** How far past what was live at the last full collection V8's heap may grow before the next one, in percent. */
const HEAP_GROWING_PERCENT = 50;

// Before anything opens a file: what the server creates is private to its user.
usePrivateUmask();
// V8 lets the old generation grow to up to four times what was live at its last full collection before collecting
// again: on a long restore or import that is hundreds of megabytes of garbage held as resident memory. Half again
// as much bounds that, whichever command starts the server (docs/performance.md).
setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);

async function main(): Promise<void> {
  let config;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let app;
  try {
    app = await buildApp(config);
  } catch (error) {
    if (error instanceof StorageError || error instanceof DatabaseRoleError) {
      console.error(`Cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'closing after an error');
    else app.log.info({ signal }, 'closing');
    await app.close();
  });
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
