import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * The weight of the built client (run `npm run build` first; `npm test` and `npm run test:e2e` do).
 * The first load is the JavaScript index.html loads: its module script and the modules it
 * preloads (the static imports). Every screen is its own chunk, loaded when it is visited.
 */
const CLIENT_DIR = path.resolve('dist/client');
const FIRST_LOAD_LIMIT_BYTES = 250 * 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

function firstLoadScripts(html: string): string[] {
  const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"/g)].map((m) => m[1]);
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)].map((m) => m[1]);
  return [...new Set([...scripts, ...preloads])];
}

describe('the built client', () => {
  it('is built', () => {
    expect(existsSync(path.join(CLIENT_DIR, 'index.html')), 'dist/client is missing: run `npm run build`').toBe(true);
  });

  it('loads under 250 KB of JavaScript (gzip) on the first visit, the screens coming later in chunks of their own', () => {
    const html = readFileSync(path.join(CLIENT_DIR, 'index.html'), 'utf8');
    const scripts = firstLoadScripts(html);
    expect(scripts.length).toBeGreaterThan(0);
    const sizes = scripts.map((src) => ({ src, gzip: gzipSync(readFileSync(path.join(CLIENT_DIR, src))).length }));
    const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
    console.log(`first load: ${(total / 1024).toFixed(1)} KB gzip in ${sizes.length} files`, sizes);
    expect(total).toBeLessThan(FIRST_LOAD_LIMIT_BYTES);
    // Code splitting happened: more JavaScript exists than the first load fetches.
    const allJs = filesUnder(path.join(CLIENT_DIR, 'assets')).filter((f) => f.endsWith('.js'));
    expect(allJs.length).toBeGreaterThan(scripts.length + 5);
    for (const screen of ['BudgetsScreen', 'TransactionSearchScreen', 'UploadScreen', 'LoginRoute']) {
      expect(
        scripts.some((src) => src.includes(screen)),
        `${screen} is in the first load`,
      ).toBe(false);
      expect(
        allJs.some((file) => path.basename(file).startsWith(`${screen}-`)),
        `${screen} has its own chunk`,
      ).toBe(true);
    }
  });

  it('has no source maps, and a brotli and a gzip copy of every text file', () => {
    const files = filesUnder(CLIENT_DIR);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    for (const file of files.filter((f) => /\.(js|css|html|svg)$/.test(f))) {
      expect(existsSync(`${file}.gz`), `${file}.gz`).toBe(true);
      expect(existsSync(`${file}.br`), `${file}.br`).toBe(true);
    }
    // Nor does any script or style sheet point at one.
    for (const file of files.filter((f) => /\.(js|css)$/.test(f))) {
      expect(readFileSync(file, 'utf8'), file).not.toContain('sourceMappingURL');
    }
  });
});
