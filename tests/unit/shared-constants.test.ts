import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The UPPER_CASE constants declared at the top level of the files under `dir`, with the file of each. */
function topLevelConstants(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    for (const match of readFileSync(file, 'utf8').matchAll(/^(?:export )?const ([A-Z][A-Z0-9_]+)\b/gm))
      found.set(match[1] ?? '', file);
  }
  return found;
}

describe('constants both sides use', () => {
  it('are declared once, in src/shared, not on the client and the server each', () => {
    const client = topLevelConstants('src/client');
    const server = topLevelConstants('src/server');
    const twice = [...client]
      .filter(([name]) => server.has(name))
      .map(([name, file]) => `${name}: ${file} and ${server.get(name)}`);
    expect(twice).toEqual([]);
  });
});
