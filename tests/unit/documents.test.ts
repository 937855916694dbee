import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../../src/server/config/config';

/**
 * The documents of a clone must be true of the clone: every variable the server reads is documented, every link
 * leads to a file that is there, and every npm script or Vitest project a document names exists.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

function documents(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => join('docs', path));
  return ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'bench/RESULTS.md', ...docs];
}

/** The variables of the README's configuration table: the first cell of each row. */
function readmeTableVariables(): string[] {
  const section = read('README.md')
    .split(/^## /m)
    .find((part) => part.startsWith('Configuration'));
  return [...(section ?? '').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1] ?? '');
}

describe('configuration', () => {
  it('.env.example lists every variable the server reads, and no other', () => {
    const listed = [...read('.env.example').matchAll(/^#? ?([A-Z][A-Z_]+)=/gm)].map((match) => match[1]);
    expect([...new Set(listed)].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it("the README's configuration table lists every variable the server reads, and no other", () => {
    expect(readmeTableVariables().sort()).toEqual([...CONFIG_VARIABLES].sort());
  });
});

describe('documents', () => {
  it.each(documents())('%s links only to files in the repository', (path) => {
    const text = read(path);
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => (match[1] ?? '').split('#')[0] ?? '')
      .filter((target) => target !== '' && !/^[a-z]+:/.test(target));
    const missing = targets.filter((target) => !existsSync(resolve(ROOT, dirname(path), target)));
    expect(missing).toEqual([]);
    expect(text).not.toMatch(/\.\.\/shared\b/);
  });

  it.each(documents())('%s names only npm scripts and Vitest projects that exist', (path) => {
    const text = read(path);
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: object }).scripts);
    const named = [...text.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]);
    expect(named.filter((name) => !scripts.includes(name ?? ''))).toEqual([]);
    const projects = [...read('vitest.config.ts').matchAll(/name: '([\w-]+)'/g)].map((match) => match[1]);
    const used = [...text.matchAll(/--project[ =]([\w-]+)/g)].map((match) => match[1]);
    expect(used.filter((name) => !projects.includes(name))).toEqual([]);
  });
});
