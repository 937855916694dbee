/**
 * The name rule: account, category, envelope-category, line-item-category and user names are
 * compared trimmed and regardless of letter case. Every such comparison (and the stored
 * `nameKey` / `usernameKey` columns) goes through this one function. Null, undefined and blank
 * names have the empty key.
 */
export function nameKey(name: string | null | undefined): string {
  return (name ?? '').trim().toLowerCase();
}

/**
 * `name`, or when its key is taken `name (2)`, `name (3)`, ...: the first free one, within `max`
 * characters. Used where names must be distinct but older data may repeat one.
 */
export function freeName(name: string, taken: ReadonlySet<string>, max = 255): string {
  if (!taken.has(nameKey(name))) return name;
  for (let n = 2; ; n += 1) {
    const suffix = ` (${n})`;
    const candidate = `${name.slice(0, max - suffix.length)}${suffix}`;
    if (!taken.has(nameKey(candidate))) return candidate;
  }
}
