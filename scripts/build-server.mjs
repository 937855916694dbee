// Bundles the server into dist/server/main.js, the demo-data command into dist/server/demo.js,
// the backup command into dist/server/backup.js (so they also run inside the Docker image) and the
// OpenAPI writer into dist/server/openapi.js (npm run lint:openapi).
// Packages stay external (installed with `npm ci --omit=dev` in production); our own TypeScript is bundled.
//
// The bundles are CommonJS (dist/server/package.json says so): the packages are CommonJS, and an
// ES module that loads them makes Node.js scan every one for its exports first; a CommonJS bundle
// requires them directly, which starts the server in a quarter less CPU time (bench/startup.bench.ts).
// Dynamic import() stays lazy: of our own modules, esbuild runs the module's code on first import; of
// a package, it becomes a require() at that point (`dynamic-import: false`; a real import() of a
// CommonJS package would go through the ES-module loader and its export scan again).
import { mkdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

mkdirSync('dist/server', { recursive: true });
writeFileSync('dist/server/package.json', `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
await build({
  entryPoints: { main: 'src/server/main.ts', demo: 'scripts/demo.ts', backup: 'scripts/backup.ts', openapi: 'scripts/write-openapi.ts' },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  supported: { 'dynamic-import': false },
  sourcemap: true,
  logLevel: 'warning',
});
console.log('built dist/server/main.js, dist/server/demo.js, dist/server/backup.js and dist/server/openapi.js');
