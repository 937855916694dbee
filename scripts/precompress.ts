import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Files the browser loads as text: compressed once at build, served as they are (`preCompressed`). */
const TEXT_FILE = /\.(js|mjs|css|html|svg|json|txt)$/i;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip, level 9) beside every text
 * file of `dir`, so the server sends a compressed copy without compressing on each request.
 * Answers the files it compressed.
 */
export function precompressDir(dir: string): string[] {
  const done: string[] = [];
  for (const file of filesUnder(dir)) {
    if (!TEXT_FILE.test(file) || !statSync(file).isFile()) continue;
    const body = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      }),
    );
    done.push(file);
  }
  return done;
}
