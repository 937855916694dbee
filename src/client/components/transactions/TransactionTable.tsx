import { Alert, Box, useMediaQuery, useTheme } from '@mui/material';
import { useNavigate, useRouter, useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState, type JSX } from 'react';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { browserLocale } from '../../lib/locale';
import { trpc } from '../../lib/trpc';
import { useCategoriseSimilar, useSuggestions } from '../../lib/suggestions';
import { CategoriseSimilar } from './CategoriseSimilar';
import { DeleteRowsDialog } from './DeleteRowsDialog';
import { Notice, useNotice } from '../Notice';
import { BulkEditDialog } from './BulkEditDialog';
import { useCategoryNames } from './hooks';
import { InspectSplitDialog } from './InspectSplitDialog';
import { SelectionBar } from './SelectionBar';
import { DEFAULT_SORT, nextSort, sortTransactions, type SortKey, type SortState } from './sort';
import { layoutSplits } from './splitGroups';
import { SplitDialog } from './SplitDialog';
import { rowsFromChildren, type SplitDraftRow } from './splitDraft';
import { TransactionCards } from './TransactionCards';
import { TransactionGrid } from './TransactionGrid';
import { useRowSelection, useTableMemory } from './useSelection';
import { useTableActions } from './useTableActions';

export interface TransactionTableProps {
  /** Rows from the TanStack Query cache: the table's writes update that cache, so the owner keeps no copy. */
  transactions: TransactionDto[];
  loading?: boolean;
  emptyText?: string;
  /** Max height of the scroll area (rows are virtualised). Default 600. */
  maxHeight?: number;
  /**
   * Names this list within its page (e.g. `budget-12`), so Back from Edit Transaction restores
   * its selection and focus. Defaults to the page's path.
   */
  memoryKey?: string;
}

/**
 * The shared, editable transaction list: sortable columns,
 * inline category and type, selection with bulk edit, delete, split and inspect; compact
 * cards below 768 px with the same selection and actions.
 */
export function TransactionTable(props: TransactionTableProps): JSX.Element {
  const { transactions, loading = false, emptyText = 'No transactions found.', maxHeight = 600 } = props;
  const actions = useTableActions();
  const categories = useCategoryNames();
  const theme = useTheme();
  // noSsr: the first render already knows the width (no table flashing before the cards).
  const phone = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [sort, setSort] = useState<SortState>(DEFAULT_SORT);
  const { selection, setSelection, toggle, toggleAll, clear } = useRowSelection(transactions);
  const memory = useTableMemory(props.memoryKey ?? pathname, transactions, setSelection);
  const selectAllRef = useRef<HTMLInputElement>(null);
  const [notice, showNotice, clearNotice] = useNotice();

  const { layout, folded, toggleParts } = useSplitLayout(transactions, sort);
  const selected = useMemo(
    () => (selection.size === 0 ? [] : transactions.filter((tx) => selection.has(tx.id))),
    [transactions, selection],
  );
  const single = selected.length === 1 ? selected[0] : null;

  const onSort = useCallback((key: SortKey) => setSort((current) => nextSort(current, key)), []);
  const clearSelection = useCallback(() => {
    clear();
    // The bar's buttons go away: focus goes to "Select all", not to the page body.
    selectAllRef.current?.focus();
  }, [clear]);
  const openEdit = useOpenEditor(memory.remember, selection);
  const inline = useInlineEdits(transactions, actions, showNotice);
  usePreloadedEditor();

  const dialogs = useDialogs(selected, actions, showNotice, clearSelection);

  const view = {
    rows: layout.rows,
    nested: layout.nested,
    partCounts: layout.partCounts,
    folded,
    onToggleParts: toggleParts,
    selection,
    categoryNames: categories.names,
    sort,
    loading,
    emptyText,
    maxHeight,
    focusRequest: memory.focusRequest,
    selectAllRef,
    onSort,
    onToggle: toggle,
    onToggleAll: toggleAll,
    onEdit: openEdit,
    suggestions: inline.suggestions,
    onCategoryChange: inline.changeCategory,
    onTypeChange: inline.changeType,
  };

  return (
    <Box>
      <TableMessages categoriesError={categories.error} similar={inline.similar} />
      {/* The selection bar is laid over the table (or the viewport's bottom), never into the rows' flow. */}
      <Box sx={{ position: 'relative' }}>
        <SelectionBar
          count={selected.length}
          canInspect={Boolean(single && (single.isSplit || single.parentTransactionId !== null))}
          busy={actions.deleting}
          onBulkEdit={dialogs.openBulk}
          onDeleteSelected={dialogs.askDelete}
          onClearSelection={clearSelection}
          onSplit={dialogs.startSplit}
          onInspect={() => single && dialogs.inspect(single.id)}
          onEdit={() => single && openEdit(single)}
        />
        {phone ? <TransactionCards {...view} onSortChange={setSort} /> : <TransactionGrid {...view} />}
      </Box>
      {/* Room below the list for the bar fixed to the viewport's bottom, so the last rows can scroll above it. */}
      {selected.length > 0 && <Box aria-hidden="true" sx={{ height: { xs: 132, sm: 96, lg: 0 } }} />}

      <TableDialogs
        selected={selected}
        categoryNames={categories.names}
        actions={actions}
        showNotice={showNotice}
        dialogs={dialogs}
      />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}

/** The sorted rows with each split's parts beneath their original; an original's parts fold away on request. */
function useSplitLayout(transactions: TransactionDto[], sort: SortState) {
  const [folded, setFolded] = useState<ReadonlySet<number>>(() => new Set());
  const layout = useMemo(
    () => layoutSplits(sortTransactions(transactions, sort), folded),
    [transactions, sort, folded],
  );
  const toggleParts = useCallback(
    (id: number) =>
      setFolded((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  return { layout, folded, toggleParts };
}

/**
 * Edit on a row: the transaction's own address (/transactions/$id/edit), shown at once (the row is at hand, so the
 * editor need not ask the server for it again); the selection is remembered for Back.
 */
function useOpenEditor(remember: ReturnType<typeof useTableMemory>['remember'], selection: ReadonlySet<number>) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const selectionRef = useRef(selection);
  // eslint-disable-next-line react-hooks/refs -- latest-value ref read by the stable openEdit callback; written before it can run
  selectionRef.current = selection;
  return useCallback(
    (tx: TransactionDto) => {
      remember(selectionRef.current, tx.id);
      utils.transactions.get.setData({ id: tx.id }, tx);
      void navigate({ to: '/transactions/$id/edit', params: { id: tx.id } });
    },
    [remember, navigate, utils],
  );
}

/**
 * Edit Transaction is a screen of its own (a lazy chunk): loaded while the table is shown, so the
 * Edit button opens it at once, as a link would after hovering it.
 */
function usePreloadedEditor() {
  const router = useRouter();
  useEffect(() => {
    router
      .preloadRoute({ to: '/create-transaction' })
      .catch((error: unknown) => console.warn('Preloading Edit Transaction failed', error));
  }, [router]);
}

type TableActions = ReturnType<typeof useTableActions>;
type InlineEdits = ReturnType<typeof useInlineEdits>;

/** Above the list: why the category names could not load, and the offer to categorise similar rows alike. */
function TableMessages({
  categoriesError,
  similar,
}: {
  categoriesError: string | null;
  similar: InlineEdits['similar'];
}) {
  return (
    <>
      {categoriesError && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {categoriesError}
        </Alert>
      )}
      <CategoriseSimilar
        offer={similar.offer}
        busy={similar.busy}
        onApply={() => void similar.applyToSimilar()}
        onRule={() => void similar.createRule()}
        onClose={similar.dismiss}
      />
    </>
  );
}
type ShowNotice = ReturnType<typeof useNotice>[1];
type Splitting = { parent: TransactionDto; initial: SplitDraftRow[] | null } | null;

/** Inline category and type edits (a refusal shows the server's message), suggestions, and "categorise similar". */
function useInlineEdits(transactions: TransactionDto[], actions: TableActions, showNotice: ShowNotice) {
  const failInline = useCallback((message: string) => showNotice(message, 'error'), [showNotice]);
  const { changeCategory: changeCategoryOf, changeType: changeTypeOf } = actions;
  const suggestions = useSuggestions(transactions);
  const similar = useCategoriseSimilar(actions.bulkUpdated, showNotice);
  const { offerFor } = similar;
  const changeCategory = useCallback(
    (tx: TransactionDto, category: string | null) => {
      changeCategoryOf(tx, category, failInline);
      void offerFor(tx, category);
    },
    [changeCategoryOf, failInline, offerFor],
  );
  const changeType = useCallback(
    (tx: TransactionDto, type: TransactionDto['type']) => changeTypeOf(tx, type, failInline),
    [changeTypeOf, failInline],
  );
  return { suggestions, similar, changeCategory, changeType };
}

/** Which of the selection's dialogs is open, and the actions that open and finish them. */
function useDialogs(
  selected: TransactionDto[],
  actions: TableActions,
  showNotice: ShowNotice,
  clearSelection: () => void,
) {
  const [bulkOpen, setBulkOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [splitting, setSplitting] = useState<Splitting>(null);
  const [inspectId, setInspectId] = useState<number | null>(null);
  const single = selected.length === 1 ? selected[0] : null;

  function startSplit() {
    if (!single) {
      showNotice('Please select exactly one transaction to split.', 'error');
      return;
    }
    if (single.isSplit) {
      showNotice('This transaction is already split.', 'error');
      return;
    }
    if (single.parentTransactionId !== null) {
      showNotice(
        'This transaction is part of a split and cannot be split again; edit the split of its parent instead',
        'error',
      );
      return;
    }
    setSplitting({ parent: single, initial: null });
  }

  async function deleteSelected(withCounterpart = false) {
    const failure = await actions.deleteRows(selected, withCounterpart);
    setConfirmDelete(false);
    if (failure !== null) {
      showNotice(failure, 'error');
      return;
    }
    showNotice(`Deleted ${selected.length} transaction${selected.length === 1 ? '' : 's'}`);
    clearSelection();
  }

  return {
    bulkOpen,
    confirmDelete,
    splitting,
    inspectId,
    openBulk: () => setBulkOpen(true),
    closeBulk: () => setBulkOpen(false),
    askDelete: () => setConfirmDelete(true),
    cancelDelete: () => setConfirmDelete(false),
    deleteSelected,
    startSplit,
    setSplitting,
    inspect: setInspectId,
    closeInspect: () => setInspectId(null),
  };
}

interface TableDialogsProps {
  selected: TransactionDto[];
  categoryNames: string[];
  actions: TableActions;
  showNotice: ShowNotice;
  dialogs: ReturnType<typeof useDialogs>;
}

/** The selection's dialogs: bulk edit, delete confirmation, split (new or edited) and inspect split. */
function TableDialogs({ selected, categoryNames, actions, showNotice, dialogs }: TableDialogsProps) {
  return (
    <>
      <BulkEditDialog
        open={dialogs.bulkOpen}
        transactionIds={selected.map((tx) => tx.id)}
        categoryNames={categoryNames}
        onClose={dialogs.closeBulk}
        onUpdated={(rows) => {
          actions.bulkUpdated(rows);
          showNotice(`Updated ${rows.length} transaction${rows.length === 1 ? '' : 's'}`);
        }}
      />
      <DeleteRowsDialog
        open={dialogs.confirmDelete}
        selected={selected}
        busy={actions.deleting}
        onConfirm={(withCounterpart) => void dialogs.deleteSelected(withCounterpart)}
        onCancel={dialogs.cancelDelete}
      />
      <SplitDialog
        parent={dialogs.splitting?.parent ?? null}
        initial={dialogs.splitting?.initial}
        categoryNames={categoryNames}
        onClose={() => dialogs.setSplitting(null)}
        onSplit={(details) => {
          actions.splitSaved(details);
          showNotice(`Split into ${details.childTransactions.length} parts`);
        }}
      />
      <InspectSplitDialog
        transactionId={dialogs.inspectId}
        onClose={dialogs.closeInspect}
        onEdit={(details) => {
          dialogs.closeInspect();
          dialogs.setSplitting({
            parent: details.parentTransaction,
            initial: rowsFromChildren(details.childTransactions, browserLocale()),
          });
        }}
      />
    </>
  );
}
