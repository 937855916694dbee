import { useMemo } from 'react';
import { trpc } from '../../lib/trpc';

/** The names of the user's categories that are not hidden, sorted by name, with the load error to show. */
export function useCategoryNames() {
  const query = trpc.categories.list.useQuery();
  const names = useMemo(
    () =>
      (query.data ?? [])
        .filter((c) => !c.hidden)
        .map((c) => c.name)
        .sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })),
    [query.data],
  );
  return { names, error: query.isError ? 'Failed to load categories' : null, refresh: query.refetch };
}

/** The user's account names, sorted by name. */
export function useAccountNames() {
  const query = trpc.accounts.list.useQuery();
  const names = useMemo(
    () => (query.data ?? []).map((a) => a.name).sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })),
    [query.data],
  );
  const currencies = useMemo(() => new Map((query.data ?? []).map((a) => [a.name, a.currency])), [query.data]);
  return {
    names,
    /** The named account's currency, or null for no account (or one not loaded). */
    currencyOf: (name: string | null | undefined) => (name ? (currencies.get(name) ?? null) : null),
    error: query.isError ? 'Failed to load accounts' : null,
  };
}

/** Names plus `current` when it is missing from the list (so a select can show it). */
export function withCurrent(names: readonly string[], current: string | null | undefined): string[] {
  if (!current || names.includes(current)) return names as string[];
  return [...names, current].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
}

/**
 * The shared data-load message: the one list that failed names itself;
 * when categories and accounts both failed, 'Failed to load data'.
 */
export function sharedLoadError(...errors: (string | null)[]): string | null {
  const failed = errors.filter((error): error is string => Boolean(error));
  if (failed.length === 0) return null;
  const [only, ...rest] = failed;
  return only !== undefined && rest.length === 0 ? only : 'Failed to load data';
}
