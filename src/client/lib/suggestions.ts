import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { must } from '../../shared/must';
import { MAX_SUGGEST_ROWS, type SuggestionDto } from '../../shared/schemas/suggest';
import type { TransactionDto } from '../../shared/schemas/transactions';
import { normalizeMerchant } from '../../shared/suggest';
import { refusalMessage, trpc } from './trpc';

/**
 * Learned suggestions for the uncategorised rows of a list (split parents left out), by row id.
 * One call for the whole list (at most 5,000 rows), cached by the rows it asked about.
 */
export function useSuggestions(rows: readonly TransactionDto[]): ReadonlyMap<number, SuggestionDto> {
  const utils = trpc.useUtils();
  const wanted = useMemo(
    () => rows.filter((tx) => tx.category === null && !tx.isSplit).slice(0, MAX_SUGGEST_ROWS),
    [rows],
  );
  const key = useMemo(() => wanted.map((tx) => `${tx.id}:${tx.amount}:${tx.description}`), [wanted]);
  const query = useQuery({
    queryKey: ['categories.suggest', key],
    queryFn: async (): Promise<[number, SuggestionDto][]> => {
      const answers = await utils.client.categories.suggest.mutate({
        transactions: wanted.map((tx) => ({ description: tx.description, amount: tx.amount })),
      });
      return wanted.map((tx, i) => [tx.id, must(answers[i], 'the server answers every row asked about')]);
    },
    enabled: wanted.length > 0,
    staleTime: 60_000,
    // While the next answer loads (a row was just categorised), the other chips stay.
    placeholderData: (previous) => previous,
  });
  return useMemo(() => new Map(query.data ?? []), [query.data]);
}

/** The offer made after a person sets a category on one row. */
export interface SimilarOffer {
  category: string;
  /** The merchant as a reason names it ("GREEN BASKET"). */
  merchant: string;
  merchantKey: string;
  ids: number[];
}

/** The earliest and latest dates a search may name: "all time". */
const ALL_TIME = { startDate: '1900-01-01', endDate: '9999-12-31' } as const;

/**
 * "Categorise similar": after a category is set on one row, finds the uncategorised rows of the
 * same merchant (same merchant key as the suggestions use) and offers to set it on them too,
 * or to create a rule that does it for every later import.
 */
export function useCategoriseSimilar(
  onUpdated: (rows: TransactionDto[]) => void,
  report: (text: string, severity?: 'success' | 'error') => void,
) {
  const utils = trpc.useUtils();
  const [offer, setOffer] = useState<SimilarOffer | null>(null);
  const [busy, setBusy] = useState(false);

  const offerFor = useCallback(
    async (tx: TransactionDto, category: string | null) => {
      setOffer(null);
      if (!category) return;
      const merchant = normalizeMerchant(tx.description);
      if (!merchant.key) return;
      // The search narrows by the merchant's longest word; the merchant key decides.
      const word = [...merchant.tokens].sort((a, b) => b.length - a.length)[0];
      try {
        const rows = await utils.client.transactions.list.query({
          ...ALL_TIME,
          categories: ['Uncategorized'],
          description: word,
          limit: 5000,
        });
        const ids = rows
          .filter((row) => row.id !== tx.id && !row.isSplit && normalizeMerchant(row.description).key === merchant.key)
          .map((row) => row.id);
        if (ids.length > 0) setOffer({ category, merchant: merchant.display, merchantKey: merchant.key, ids });
      } catch (error) {
        console.error('Finding similar transactions failed', error);
      }
    },
    [utils],
  );

  const applyToSimilar = useCallback(async () => {
    if (!offer) return;
    setBusy(true);
    try {
      const rows = await utils.client.transactions.bulkUpdate.mutate({
        transactionIds: offer.ids,
        updates: { category: offer.category },
      });
      onUpdated(rows);
      report(`Set ${offer.category} on ${rows.length} similar transaction${rows.length === 1 ? '' : 's'}`);
      setOffer(null);
    } catch (error) {
      report(refusalMessage(error, 'Failed to update transactions'), 'error');
    } finally {
      setBusy(false);
    }
  }, [offer, utils, onUpdated, report]);

  const createRule = useCallback(async () => {
    if (!offer) return;
    setBusy(true);
    try {
      await utils.client.rules.create.mutate({
        name: `${offer.merchant} → ${offer.category}`,
        conditions: [{ field: 'description', op: 'contains', value: offer.merchantKey }],
        actions: { category: offer.category },
        priority: 100,
        enabled: true,
      });
      await utils.rules.invalidate();
      report(`Rule created: ${offer.merchant} is always ${offer.category}`);
      setOffer(null);
    } catch (error) {
      report(refusalMessage(error, 'Failed to create the rule'), 'error');
    } finally {
      setBusy(false);
    }
  }, [offer, utils, report]);

  return { offer, busy, offerFor, applyToSimilar, createRule, dismiss: () => setOffer(null) };
}
