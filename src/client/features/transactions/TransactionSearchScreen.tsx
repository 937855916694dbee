import MoreVertIcon from '@mui/icons-material/MoreVert';
import { Alert, Box, Button, Chip, IconButton, Menu, MenuItem, Stack, Typography } from '@mui/material';
import { keepPreviousData } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { isReservedCategoryName, UNCATEGORIZED_LABEL } from '../../../shared/categories';
import { presetOf } from '../../../shared/dates/presets';
import type { TransactionDto, TransactionFilters } from '../../../shared/schemas/transactions';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useSkipTarget } from '../../components/skipTarget';
import { sharedLoadError, useAccountNames, useCategoryNames } from '../../components/transactions/hooks';
import { countsText, resultCounts } from '../../components/transactions/splitGroups';
import { TransactionTable } from '../../components/transactions/TransactionTable';
import { downloadWithSession } from '../../lib/download';
import { trpc } from '../../lib/trpc';
import { DueSoon } from '../schedules/DueSoon';
import { TransfersPanel } from '../transfers/TransfersPanel';
import { FilterPanel } from './FilterPanel';
import { ConvertedNote, useSeveralCurrencies } from '../../components/ConvertedNote';
import { formatSignedMoney } from '../../../shared/money';
import { useHomeCurrency } from '../../lib/currency';
import { emptyResultText, searchTotal, transfersLeftOutNote } from './searchForm';
import { exportCsvPath, extraFilterLabels, type ExtraFilters } from './searchParams';
import { useTransactionSearch } from './useTransactionSearch';

/** Where "Skip to results" puts focus: the line that says what was found, just above the rows. */
export const RESULTS_ID = 'transaction-results';

/**
 * Transaction Search (/transactions): filters (kept in the URL, folded into one summary line once a search
 * has run), an automatic search once both dates are set, the count and total of what was found, and the
 * results in the shared, editable transaction table. New transfer and Fix Split Status are under "More actions".
 */
export function TransactionSearchScreen() {
  const search = useTransactionSearch();
  const { filters, results, searching, current } = search;
  const categories = useCategoryNames();
  const accounts = useAccountNames();
  const loadError = sharedLoadError(categories.error, accounts.error);
  const fix = useFixSplitStatus();
  const [creatingTransfer, setCreatingTransfer] = useState(false);
  useSkipTarget('Skip to results', RESULTS_ID);
  const categoryOptions = useMemo(
    // 'Uncategorized' (reserved: no category has that name) finds the transactions without one.
    () => [UNCATEGORIZED_LABEL, ...categories.names.filter((name) => !isReservedCategoryName(name))],
    [categories.names],
  );

  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="h1" sx={{ flexGrow: 1 }}>
          Transaction Search
        </Typography>
        <MoreActions fixing={fix.busy} onFixSplitStatus={fix.ask} onNewTransfer={() => setCreatingTransfer(true)} />
      </Stack>
      <FilterPanel
        search={search}
        categoryOptions={categoryOptions}
        accountNames={accounts.names}
        found={results && current ? resultCounts(results).transactions : null}
        preset={presetOf(search.form, search.today)}
      />
      <ExtraFilterChips extras={search.extras} onRemove={search.removeExtra} />
      <DueSoon />
      <TransfersPanel creating={creatingTransfer} onCreatingEnd={() => setCreatingTransfer(false)} />
      {loadError && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {loadError}
        </Alert>
      )}
      {fix.result && (
        <Alert severity={fix.result.ok ? 'success' : 'error'} role="alert" onClose={fix.dismiss} sx={{ mb: 2 }}>
          {fix.result.text}
        </Alert>
      )}
      {results && filters && (
        <SearchResults results={results} filters={filters} searching={searching} current={current} />
      )}
      {!results && searching && <Typography color="text.secondary">Searching...</Typography>}
      <ConfirmDialog
        open={fix.asking}
        title="Fix Split Status"
        message="This will reset any transactions that are marked as split but have no split children. Continue?"
        confirmLabel="Continue"
        busy={fix.busy}
        onConfirm={() => void fix.run()}
        onCancel={fix.cancel}
      />
    </Box>
  );
}

/** The screen's less frequent actions, out of the way of the filters. */
function MoreActions(props: { fixing: boolean; onFixSplitStatus: () => void; onNewTransfer: () => void }) {
  const { fixing, onFixSplitStatus, onNewTransfer } = props;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  return (
    <>
      <IconButton
        aria-label="More actions"
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVertIcon />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            onNewTransfer();
          }}
        >
          New transfer
        </MenuItem>
        <MenuItem
          disabled={fixing}
          onClick={() => {
            setAnchor(null);
            onFixSplitStatus();
          }}
        >
          Fix Split Status
        </MenuItem>
      </Menu>
    </>
  );
}

/** Fix Split Status: asked to confirm, then every cached search is fetched again. */
function useFixSplitStatus() {
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const utils = trpc.useUtils();
  const mutation = trpc.transactions.fixSplitStatus.useMutation();
  async function run() {
    try {
      const answer = await mutation.mutateAsync();
      setResult({ ok: true, text: `Fixed ${answer.message} orphaned split transactions` });
      void utils.transactions.invalidate();
    } catch (failure) {
      console.error('Fix split status failed', failure);
      setResult({ ok: false, text: 'Error fixing split status' });
    } finally {
      setAsking(false);
    }
  }
  return {
    asking,
    result,
    busy: mutation.isPending,
    ask: () => setAsking(true),
    cancel: () => setAsking(false),
    dismiss: () => setResult(null),
    run,
  };
}

/** The filters a link brought beyond the form's (a report's payee, direction, counted rows), each removable. */
function ExtraFilterChips({ extras, onRemove }: { extras: ExtraFilters; onRemove: (key: keyof ExtraFilters) => void }) {
  const labels = extraFilterLabels(extras);
  if (labels.length === 0) return null;
  return (
    <Stack direction="row" aria-label="Filters from the link" sx={{ mb: 2, flexWrap: 'wrap', gap: 1 }}>
      {labels.map(({ key, label }) => (
        <Chip key={key} label={label} onDelete={() => onRemove(key)} />
      ))}
    </Stack>
  );
}

/** What was found (a split counts once; the total counts its parts, never the original), Export CSV, the rows. */
function SearchResults(props: {
  results: TransactionDto[];
  filters: TransactionFilters;
  searching: boolean;
  current: boolean;
}) {
  const { results, filters, searching, current } = props;
  const total = useSearchTotal(results, filters);
  const counts = resultCounts(results);
  return (
    <>
      <Stack
        id={RESULTS_ID}
        tabIndex={-1}
        direction="row"
        sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 2, rowGap: 0.5, mb: 1, borderRadius: 1 }}
      >
        <Typography
          role="status"
          variant="body2"
          aria-hidden={!current}
          sx={{ visibility: current ? 'visible' : 'hidden', display: 'flex', flexWrap: 'wrap', columnGap: 2 }}
        >
          <strong>Found {countsText(counts)}</strong>
          <span>
            {total.text}
            {transfersLeftOutNote(total.transfersLeftOut)}
          </span>
          {counts.splitParents + counts.looseParts > 0 && <span>(split parts counted, never their originals)</span>}
        </Typography>
        <Button
          size="small"
          variant="outlined"
          sx={{ ml: 'auto' }}
          onClick={() => void downloadWithSession(exportCsvPath(filters))}
        >
          Export CSV
        </Button>
      </Stack>
      {total.converted && <ConvertedNote currency={total.currency} noRate={total.noRate} />}
      <TransactionTable transactions={results} loading={searching} emptyText={emptyResultText(filters)} />
    </>
  );
}

/**
 * The banner's net: summed here from the rows while every account is in the home currency; with
 * accounts in several currencies, the server's net, each row converted at its own date's rate.
 */
function useSearchTotal(results: TransactionDto[], filters: TransactionFilters) {
  const several = useSeveralCurrencies();
  const home = useHomeCurrency();
  const converted = trpc.transactions.total.useQuery(filters, { enabled: several, placeholderData: keepPreviousData });
  const local = searchTotal(results, home);
  if (!several) return { ...local, converted: false, currency: home, noRate: 0 };
  const data = converted.data;
  if (!data) return { ...local, text: 'Net: …', converted: false, currency: home, noRate: 0 };
  return {
    cents: data.net,
    text: `Net: ${formatSignedMoney(data.net, { currency: data.currency })}`,
    transfersLeftOut: data.transfersLeftOut,
    converted: true,
    currency: data.currency,
    noRate: data.noRate,
  };
}
