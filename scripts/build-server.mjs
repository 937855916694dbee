// Bundles the server into dist/server/main.js, the demo-data command into dist/server/demo.js,
// the backup command into dist/server/backup.js (so they also run inside the Docker image) and the
// OpenAPI writer into dist/server/openapi.js (npm run lint:openapi).
// Packages stay external (installed with `npm ci --omit=dev` in production); our own TypeScript is bundled.
// How the TypeScript is bundled: scripts/server-bundle-options.mjs (shared with the tests' server processes).
import { mkdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { serverBundleOptions } from './server-bundle-options.mjs';

mkdirSync('dist/server', { recursive: true });
writeFileSync('dist/server/package.json', `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
await build({
  entryPoints: {
    main: 'src/server/main.ts',
    demo: 'scripts/demo.ts',
    backup: 'scripts/backup.ts',
    openapi: 'scripts/write-openapi.ts',
  },
  outdir: 'dist/server',
  ...serverBundleOptions,
  sourcemap: true,
});
console.log('built dist/server/main.js, dist/server/demo.js, dist/server/backup.js and dist/server/openapi.js');
