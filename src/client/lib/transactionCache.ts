import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { useMemo } from 'react';
import type { EnvelopeDto } from '../../shared/schemas/envelopes';
import type { TransactionDto } from '../../shared/schemas/transactions';
import { trpc } from './trpc';

/**
 * The one place that knows where transactions sit in the TanStack Query cache: searches
 * (`transactions.list`, which budgets use too), batches (`transactions.batchTransactions`) and
 * envelopes (`envelopes.list`, each with its rows). Table writes go through it: rows changed on the
 * server replace the cached rows with the same id everywhere, deleted rows leave every list, and a
 * snapshot taken before an optimistic change puts everything back when the server refuses.
 */
type Rows = TransactionDto[];
type Snapshot = Array<[QueryKey, unknown]>;

const ROW_LISTS = [getQueryKey(trpc.transactions.list), getQueryKey(trpc.transactions.batchTransactions)];
const ENVELOPES = getQueryKey(trpc.envelopes.list);

function replaceRows(list: Rows, byId: ReadonlyMap<number, TransactionDto>): Rows {
  let changed = false;
  const out: Rows = [];
  for (const row of list) {
    const next = byId.get(row.id);
    if (next && next !== row) changed = true;
    out.push(next ?? row);
  }
  return changed ? out : list;
}

function dropRows(list: Rows, gone: ReadonlySet<number>): Rows {
  const out = list.filter((row) => !gone.has(row.id));
  return out.length === list.length ? list : out;
}

function editEverywhere(queryClient: QueryClient, edit: (rows: Rows) => Rows): void {
  for (const queryKey of ROW_LISTS) {
    queryClient.setQueriesData<Rows>({ queryKey }, (current) => (Array.isArray(current) ? edit(current) : current));
  }
  queryClient.setQueriesData<EnvelopeDto[]>({ queryKey: ENVELOPES }, (current) =>
    Array.isArray(current)
      ? current.map((envelope) => ({ ...envelope, transactions: edit(envelope.transactions) }))
      : current,
  );
}

/** Figures other screens compute from rows (marked stale: fetched again when next shown). */
function derived(utils: ReturnType<typeof trpc.useUtils>): Promise<unknown> {
  return Promise.all([
    utils.reports.invalidate(),
    utils.accounts.register.invalidate(),
    utils.accounts.reconcile.invalidate(),
  ]);
}

/**
 * After an account is edited: its name and on-plan flag are in every row it holds and in every figure that
 * counts transfers by the plan, so those are fetched again.
 */
export function accountEdited(utils: ReturnType<typeof trpc.useUtils>): Promise<unknown> {
  return Promise.all([
    utils.transactions.invalidate(),
    utils.envelopes.invalidate(),
    utils.budgets.invalidate(),
    utils.plan.invalidate(),
    utils.reports.invalidate(),
    utils.accounts.register.invalidate(),
  ]);
}

export function createTransactionCache(queryClient: QueryClient, utils: ReturnType<typeof trpc.useUtils>) {
  return {
    /** Shows `rows` (as the server answered them, or as they are about to be) wherever they are listed. */
    put(rows: readonly TransactionDto[]): void {
      if (rows.length === 0) return;
      const byId = new Map(rows.map((row) => [row.id, row]));
      editEverywhere(queryClient, (list) => replaceRows(list, byId));
    },
    /** Takes rows out of every list. */
    remove(ids: readonly number[]): void {
      if (ids.length === 0) return;
      const gone = new Set(ids);
      editEverywhere(queryClient, (list) => dropRows(list, gone));
    },
    /** Every cached list of rows, to put back with `restore` when an optimistic change is refused. */
    snapshot(): Snapshot {
      return [...ROW_LISTS, ENVELOPES].flatMap((queryKey) => queryClient.getQueriesData({ queryKey }));
    },
    restore(snapshot: Snapshot): void {
      for (const [queryKey, data] of snapshot) queryClient.setQueryData(queryKey, data);
    },
    /** Fetches every list again (rows appeared or changed beyond those answered: split parts, batches, totals). */
    refetch(): Promise<unknown> {
      return Promise.all([utils.transactions.invalidate(), utils.envelopes.list.invalidate(), derived(utils)]);
    },
    /** Totals that derive from rows (envelopes, batch counts, reports, registers) are fetched again; row lists are already right. */
    refreshTotals(): Promise<unknown> {
      return Promise.all([utils.envelopes.list.invalidate(), utils.transactions.batches.invalidate(), derived(utils)]);
    },
  };
}

export type TransactionCache = ReturnType<typeof createTransactionCache>;

export function useTransactionCache(): TransactionCache {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  return useMemo(() => createTransactionCache(queryClient, utils), [queryClient, utils]);
}
