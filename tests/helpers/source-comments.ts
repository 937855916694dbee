import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/** One comment of a source file: its text (delimiters included) and the line it starts on (from 1). */
export interface SourceComment {
  text: string;
  line: number;
}

/** Every comment of a TypeScript or JavaScript file, found by the compiler's parser (never inside a string). */
export function commentsOf(fileName: string, text: string): SourceComment[] {
  const kind = /\.[cm]?[jt]sx$/.test(fileName) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Map<number, SourceComment>();
  const collect = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? [])
      if (!seen.has(range.pos))
        seen.set(range.pos, {
          text: text.slice(range.pos, range.end),
          line: source.getLineAndCharacterOfPosition(range.pos).line + 1,
        });
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    // Tokens are not visited as nodes: a comment before a closing brace or after the last statement is theirs.
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen.values()].sort((a, b) => a.line - b.line);
}

/** Words that, followed by a number, cite a tracker entry rather than say why. */
const TRACKER_NUMBER = /(?<!\bline[ -])\b(?:issues?|items?|tickets?|bugs?|PRs?|pull requests?|rounds?)\s+#?\d+/i;
/** A bare `#123` used as a reference (looked for outside quoted examples such as "GREEN BASKET #0231"). */
const HASH_NUMBER = /(?<![\w#&/])#\d+\b/;
const QUOTED = /"[^"\n]*"|`[^`\n]*`/g;
/** The original specification lives outside the repository. */
const OUTSIDE_SPEC = /\bSPEC\b|\bthe spec(?:'s|ification)?\b|\bspec section\b/i;
/** The sibling folder of the repository a checkout does not have. */
const OUTSIDE_FOLDER = /(?:^|[\s(`'"])\.\.\/shared\b/;
/** A Markdown document named by path (`docs/performance.md`, `README.md`). */
const MARKDOWN_PATH = /[\w./-]*\w\.md\b/g;

/**
 * What is wrong with one comment: a tracker number, the external specification, or a Markdown
 * document that exists neither from the repository's root nor beside the file.
 */
export function commentProblems(comment: string, file: string, root: string): string[] {
  const problems: string[] = [];
  const tracker = TRACKER_NUMBER.exec(comment) ?? HASH_NUMBER.exec(comment.replace(QUOTED, '""'));
  if (tracker) problems.push(`cites a tracker number ("${tracker[0]}")`);
  const spec = OUTSIDE_SPEC.exec(comment);
  if (spec) problems.push(`cites the specification outside the repository ("${spec[0]}")`);
  if (OUTSIDE_FOLDER.test(comment)) problems.push('points at ../shared, outside the repository');
  for (const [path] of comment.matchAll(MARKDOWN_PATH))
    if (!existsSync(resolve(root, path)) && !existsSync(resolve(dirname(file), path)))
      problems.push(`names ${path}, which is not in the repository`);
  return problems;
}
