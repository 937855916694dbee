// Bundles the server into dist/server/main.js. Packages stay external (installed
// with `npm ci --omit=dev` in production); our own TypeScript is bundled.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server/main.ts'],
  outfile: 'dist/server/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
console.log('built dist/server/main.js');
