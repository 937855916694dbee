import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { buildReason } from '../../scripts/build-freshness.mjs';

/** `npm start` builds only when the build is missing or older than a source (scripts/start.mjs). */
describe('buildReason', () => {
  let root: string;
  const write = (file: string, at: number) => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, 'x');
    utimesSync(full, at, at);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'bt-fresh-'));
    write('src/server/main.ts', 1_000);
    write('package.json', 1_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('asks for a build when an output is missing', () => {
    write('dist/server/main.js', 2_000);
    expect(buildReason(root)).toMatch(/dist\/client\/index.html is missing/);
  });

  it('starts without building when the build is newer than every source', () => {
    write('dist/server/main.js', 2_000);
    write('dist/client/index.html', 2_000);
    utimesSync(path.join(root, 'src/server'), 1_000, 1_000);
    utimesSync(path.join(root, 'src'), 1_000, 1_000);
    expect(buildReason(root)).toBeNull();
  });

  it('rebuilds when a source changed after the build', () => {
    write('dist/server/main.js', 2_000);
    write('dist/client/index.html', 2_000);
    write('src/server/main.ts', 3_000);
    expect(buildReason(root)).toMatch(/^src changed/);
  });
});
