/**
 * The server words a refused input as "field: message" (several joined with "; "), e.g.
 * "password: Password must be at least 8 characters". People should read the message under
 * the field it names, without the internal prefix. Pure, so it survives any client rebuild.
 */

/** "splits.0.amount: must be ..." -> path and message; a message with spaces before ':' is no path. */
const PATH_PREFIX = /^([A-Za-z_$][\w$]*(?:\.[\w$]+)*): (.+)$/s;

export interface ServerIssue {
  /** Dotted path ("password", "splits.0.amount"), or '' when the message names no field. */
  path: string;
  message: string;
}

/**
 * Splits a server message into issues. Only when every "; "-separated part carries a path
 * prefix is it read as a list (a plain sentence may contain "; " or ": " itself).
 */
export function parseServerMessage(text: string): ServerIssue[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  const parts = trimmed.split('; ');
  const issues = parts.map(prefixedIssue);
  if (issues.every((issue): issue is ServerIssue => issue !== null)) return issues;
  return [prefixedIssue(trimmed) ?? { path: '', message: trimmed }];
}

/** "field: message" as an issue, or null when the text carries no path prefix. */
function prefixedIssue(text: string): ServerIssue | null {
  const [, path, message] = PATH_PREFIX.exec(text) ?? [];
  return path !== undefined && message !== undefined ? { path, message: message.trim() } : null;
}

/** The server message as a person reads it: prefixes gone, several messages as sentences. */
export function readableServerText(text: string): string {
  const messages = parseServerMessage(text).map((issue) => issue.message);
  if (messages.length <= 1) return messages[0] ?? '';
  return messages.map((message) => (/[.!?]$/.test(message) ? message : `${message}.`)).join(' ');
}

/**
 * Messages for the form's own fields (by the first path segment, e.g. 'password'), and the
 * rest as readable text for a general alert.
 */
export function fieldMessages<F extends string>(
  text: string,
  fields: readonly F[],
): { fields: Partial<Record<F, string>>; rest: string } {
  const out: Partial<Record<F, string>> = {};
  const rest: string[] = [];
  for (const issue of parseServerMessage(text)) {
    const head = issue.path.split('.')[0] as F;
    if (issue.path && fields.includes(head) && out[head] === undefined) out[head] = issue.message;
    else rest.push(issue.message);
  }
  return { fields: out, rest: rest.join(' ') };
}

/**
 * A failure notice that keeps the screen's wording and adds the server's reason when it gave one:
 * "Failed to update transaction: The amount of a split transaction cannot be changed here".
 * "Please try again." is dropped when the server refused (trying again would not help).
 */
export function withReason(fallback: string, reason: string): string {
  const text = reason.trim();
  if (!text) return fallback;
  let head = fallback.trimEnd();
  for (const ending of ['Please try again.', 'Please try again'])
    if (head.endsWith(ending)) {
      head = head.slice(0, -ending.length).trimEnd();
      break;
    }
  if (head.endsWith('.') || head.endsWith(':')) head = head.slice(0, -1).trimEnd();
  return `${head}: ${text}`;
}
