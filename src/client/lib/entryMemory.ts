/**
 * What a screen wants back when the person returns with Back (the selected budget, the selected
 * rows and the row that was being edited) is kept in the browser's own history entry: each entry
 * remembers its own, a reload keeps it, and a new visit starts clean. TanStack Router keeps its
 * keys in the same state object; these live beside them under a "bt." prefix.
 */
const PREFIX = 'bt.';

function currentState(): Record<string, unknown> {
  const state: unknown = typeof window === 'undefined' ? null : window.history.state;
  return state && typeof state === 'object' ? (state as Record<string, unknown>) : {};
}

/** Stores `value` in the current history entry (the URL stays as it is). */
export function rememberInEntry(key: string, value: unknown): void {
  if (typeof window === 'undefined') return;
  window.history.replaceState({ ...currentState(), [PREFIX + key]: value }, '');
}

/** The value stored under `key` in the current history entry, if any. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names the type it stored under `key` with rememberInEntry
export function recallFromEntry<T>(key: string): T | undefined {
  return currentState()[PREFIX + key] as T | undefined;
}
