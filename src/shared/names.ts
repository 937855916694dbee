/**
 * The name rule: account, category, envelope-category, line-item-category and user names are
 * compared trimmed and regardless of letter case. Every such comparison (and the stored
 * `nameKey` / `usernameKey` columns) goes through this one function. Null, undefined and blank
 * names have the empty key.
 */
export function nameKey(name: string | null | undefined): string {
  return (name ?? '').trim().toLowerCase();
}
