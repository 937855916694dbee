// Bundles the server into dist/server/main.js, the demo-data command into dist/server/demo.js,
// the backup command into dist/server/backup.js, the user command into dist/server/user.js (so they
// also run inside the Docker image) and the
// OpenAPI writer into dist/server/openapi.js (npm run lint:openapi), and the database reader thread
// into dist/server/read-worker.js (a module of its own that the server starts as a worker).
// Packages stay external (installed with `npm ci --omit=dev` in production); our own TypeScript is bundled.
// How the TypeScript is bundled: scripts/server-bundle-options.mjs (shared with the tests' server processes).
import { mkdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { serverBundleOptions, workerEntryPoints } from './server-bundle-options.mjs';

mkdirSync('dist/server', { recursive: true });
writeFileSync('dist/server/package.json', `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
await build({
  entryPoints: {
    main: 'src/server/main.ts',
    demo: 'scripts/demo.ts',
    backup: 'scripts/backup.ts',
    user: 'scripts/user.ts',
    openapi: 'scripts/write-openapi.ts',
    ...workerEntryPoints,
  },
  outdir: 'dist/server',
  ...serverBundleOptions,
  sourcemap: true,
});
console.log('built dist/server/main.js, demo.js, backup.js, user.js, openapi.js and read-worker.js');
