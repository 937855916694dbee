// `npm start`: builds only when the build is missing or older than its sources, then runs the
// server (dist/server/main.js) in this process.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildReason } from './build-freshness.mjs';

const reason = buildReason();
if (reason) {
  console.log(`Building (${reason})...`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else {
  console.log('The build is up to date; starting.');
}
await import(pathToFileURL(path.resolve('dist/server/main.js')).href);
