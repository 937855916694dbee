import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentProblems, commentsOf } from '../helpers/source-comments';

/**
 * Comments say why the code is as it is. A tracker number, the original specification or a
 * document that is not in the repository means nothing to someone reading a clone, so the
 * source must not lean on them.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const SWEPT_FOLDERS = ['src', 'scripts', 'bench'];
const SWEPT_FILES = ['vitest.config.ts', 'eslint.config.js', 'vite.config.ts', 'mikro-orm.config.ts'];
const CODE = /\.(?:[cm]?[jt]sx?|mts)$/;

function sourceFiles(): string[] {
  const inFolders = SWEPT_FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((path) => CODE.test(path) && !path.split(/[\\/]/).includes('.data'))
      .map((path) => join(folder, path)),
  );
  return [...inFolders, ...SWEPT_FILES];
}

describe('commentProblems', () => {
  const file = join(ROOT, 'src/server/app.ts');
  it.each([
    ['// Issue 19: the import streams.', 'tracker number'],
    ['/** Kept apart (issue #12). */', 'tracker number'],
    ['// see item 4 of the list', 'tracker number'],
    ['// fixed in #123', 'tracker number'],
    ['// (#45) keep the order', 'tracker number'],
    ['/** The budget overview of SPEC section 9. */', 'specification'],
    ["/** The spec's ten colours, in its order. */", 'specification'],
    ['// as the spec says', 'specification'],
    ['// see ../shared/CONVENTIONS.md', 'outside the repository'],
    ['// see docs/no-such-page.md', 'not in the repository'],
    ['// the notes in NOTES.md', 'not in the repository'],
  ])('flags %s', (comment, problem) => {
    expect(commentProblems(comment, file, ROOT).join('; ')).toContain(problem);
  });

  it.each([
    '// Store numbers such as "#0231" and `#1234` are dropped.',
    '// Colours like #4CAF50 are hex.',
    '// A line item holds at most 500 categories.',
    '// See README.md and CONTRIBUTING.md.',
    '/** Its position, for labels ("Line item 2", "line-item 3"). */',
    '// The index issues one lookup per row.',
    '/** Respects the inspection window of 15 minutes. */',
  ])('leaves alone %s', (comment) => {
    expect(commentProblems(comment, file, ROOT)).toEqual([]);
  });
});

describe('commentsOf', () => {
  it('finds line, block and JSX comments, never text inside strings', () => {
    const text = [
      "const a = '// not a comment issue 1';",
      '// one',
      'const b = /\\/\\/ regex/; /* two */',
      'const c = <div>{/* three */}</div>;',
      'function f() {',
      '  return 1;',
      '  // four, before a closing brace',
      '}',
    ].join('\n');
    expect(commentsOf('x.tsx', text)).toEqual([
      { text: '// one', line: 2 },
      { text: '/* two */', line: 3 },
      { text: '/* three */', line: 4 },
      { text: '// four, before a closing brace', line: 7 },
    ]);
  });
});

describe('the comments of the source', () => {
  it('cite no tracker number, no outside specification and no missing document', () => {
    const problems = sourceFiles().flatMap((path) =>
      commentsOf(path, readFileSync(join(ROOT, path), 'utf8')).flatMap((comment) =>
        commentProblems(comment.text, join(ROOT, path), ROOT).map((problem) => `${path}:${comment.line} ${problem}`),
      ),
    );
    expect(problems).toEqual([]);
  });
});
