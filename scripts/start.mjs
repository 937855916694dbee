// `npm start`: builds only when the build is missing or older than its sources, then runs the
// server (dist/server/main.js) in this process. `npm start` runs it with --max-semi-space-size=2 (bench/RESULTS.md).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
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
// The bundle is CommonJS: required, not imported (an import would first scan it for exports).
createRequire(import.meta.url)(path.resolve('dist/server/main.js'));
