import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * V8 sizes its heap when the process starts (a flag set at run time has no effect), so the
 * ways the server is run pass the young-generation limit that keeps idle memory small (bench/RESULTS.md,
 * bench/startup.bench.ts): `npm start` and the Docker image, the same flag in both.
 */
const FLAG = '--max-semi-space-size=2';

describe('how the server is started', () => {
  it('npm start runs node with the young-generation limit', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(`node ${FLAG} scripts/start.mjs`);
  });

  it('the Docker image runs the bundle with the same limit', () => {
    const cmd = readFileSync('Dockerfile', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('CMD '));
    expect(cmd).toBe(`CMD ["node", "${FLAG}", "dist/server/main.js"]`);
  });
});
