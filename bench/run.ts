/**
 * `npm run bench [name...]` runs every `bench/*.bench.ts` (or the named ones) one after
 * another and prints their figures. Each bench file default-exports an async function.
 * Benchmarks print numbers; they never fail a test run.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.startsWith(name)))
  .sort();

if (files.length === 0) {
  console.error(`No benchmark matches ${wanted.join(', ')}`);
  process.exit(1);
}

for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const started = performance.now();
  const module = (await import(pathToFileURL(join(here, file)).href)) as { default: () => Promise<void> };
  await module.default();
  console.log(`(${file} took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
