// Whether the build (dist/) is missing or older than its sources: used by `npm start` (start.mjs).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const OUTPUTS = ['dist/server/main.js', 'dist/client/index.html'];
const SOURCES = [
  'src',
  'scripts/build-server.mjs',
  'scripts/server-bundle-options.mjs',
  'vite.config.ts',
  'mikro-orm.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

/** The newest modification time under a file or folder (0 when it does not exist). */
export function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Why a build is needed, or null when the build is there and newer than every source. */
export function buildReason(root = '.') {
  const missing = OUTPUTS.find((file) => !existsSync(path.join(root, file)));
  if (missing) return `${missing} is missing`;
  const built = Math.min(...OUTPUTS.map((file) => statSync(path.join(root, file)).mtimeMs));
  const stale = SOURCES.find((source) => newestMtime(path.join(root, source)) > built);
  return stale ? `${stale} changed since the last build` : null;
}
