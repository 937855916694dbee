// Bundles the server into dist/server/main.js, the demo-data command into dist/server/demo.js
// and the backup command into dist/server/backup.js (so they also run inside the Docker image).
// Packages stay external (installed with `npm ci --omit=dev` in production); our own TypeScript is bundled.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/server/main.ts', demo: 'scripts/demo.ts', backup: 'scripts/backup.ts' },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
console.log('built dist/server/main.js, dist/server/demo.js and dist/server/backup.js');
