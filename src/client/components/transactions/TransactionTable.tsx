import { Alert, Box, LinearProgress, Paper, Table, TableBody, TableCell, TableContainer, TableRow } from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useRef, useState, type JSX } from 'react';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { ConfirmDialog } from '../ConfirmDialog';
import { Notice, useNotice } from '../Notice';
import { BulkEditDialog } from './BulkEditDialog';
import { useCategoryNames } from './hooks';
import { InspectSplitDialog } from './InspectSplitDialog';
import { SelectionBar } from './SelectionBar';
import { DEFAULT_SORT, nextSort, sortTransactions, type SortKey, type SortState } from './sort';
import { SplitDialog } from './SplitDialog';
import { rowsFromChildren, type SplitDraftRow } from './splitDraft';
import { ROW_HEIGHT, TransactionRow } from './TransactionRow';
import { HEADER_HEIGHT, TransactionColGroup, TransactionTableHead } from './TransactionTableHead';
import { useTableActions } from './useTableActions';

export interface TransactionTableProps {
  transactions: TransactionDto[];
  /** Called with rows the table changed (inline edit, bulk edit, split) so the owner merges them by id. */
  onTransactionsUpdated?: (updated: TransactionDto[]) => void;
  onTransactionsDeleted?: (ids: number[]) => void;
  /** Called after a split is created or edited (the owner refetches: children appear). */
  onSplitChanged?: () => void;
  loading?: boolean;
  emptyText?: string;
  /** Max height of the scroll area (rows are virtualised). Default 600. */
  maxHeight?: number;
}

const COLUMN_COUNT = 7;

/**
 * The shared, editable transaction list (SPEC: Transaction table): sortable columns,
 * inline category and type, selection with bulk edit, delete, split and inspect.
 * Rows are virtualised so 20,000 of them stay responsive.
 */
export function TransactionTable(props: TransactionTableProps): JSX.Element {
  const { transactions, loading = false, emptyText = 'No transactions found.', maxHeight = 600 } = props;
  const { onTransactionsUpdated, onTransactionsDeleted, onSplitChanged } = props;
  const actions = useTableActions(transactions, { onTransactionsUpdated, onTransactionsDeleted, onSplitChanged });
  const categories = useCategoryNames();
  const navigate = useNavigate();
  const [sort, setSort] = useState<SortState>(DEFAULT_SORT);
  const [selection, setSelection] = useState<ReadonlySet<number>>(() => new Set());
  const [bulkOpen, setBulkOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [splitting, setSplitting] = useState<{ parent: TransactionDto; initial: SplitDraftRow[] | null } | null>(null);
  const [inspectId, setInspectId] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [notice, showNotice, clearNotice] = useNotice();

  const sorted = useMemo(() => sortTransactions(actions.rows, sort), [actions.rows, sort]);
  const selected = useMemo(
    () => (selection.size === 0 ? [] : actions.rows.filter((tx) => selection.has(tx.id))),
    [actions.rows, selection],
  );
  const single = selected.length === 1 ? selected[0] : null;

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    paddingStart: HEADER_HEIGHT,
    initialRect: { width: 1000, height: maxHeight },
  });
  const items = virtualizer.getVirtualItems();
  const padTop = items.length > 0 ? items[0].start - HEADER_HEIGHT : 0;
  const padBottom = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;

  const toggle = useCallback((id: number) => {
    setSelection((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const toggleAll = useCallback(() => {
    setSelection((current) => {
      const all = actions.rows.length > 0 && actions.rows.every((tx) => current.has(tx.id));
      return all ? new Set() : new Set(actions.rows.map((tx) => tx.id));
    });
  }, [actions.rows]);
  const onSort = useCallback((key: SortKey) => setSort((current) => nextSort(current, key)), []);
  const clearSelection = useCallback(() => setSelection(new Set()), []);

  function startSplit() {
    setError('');
    if (!single) return setError('Please select exactly one transaction to split.');
    if (single.isSplit) return setError('This transaction is already split.');
    if (single.parentTransactionId !== null) {
      return setError('This transaction is part of a split and cannot be split again; edit the split of its parent instead');
    }
    setSplitting({ parent: single, initial: null });
  }

  async function deleteSelected() {
    const ok = await actions.deleteRows(selected);
    setConfirmDelete(false);
    if (!ok) return setError('Failed to delete some transactions. Please try again.');
    setError('');
    showNotice(`Deleted ${selected.length} transaction${selected.length === 1 ? '' : 's'}`);
    clearSelection();
  }

  return (
    <Box>
      {selected.length > 0 && (
        <SelectionBar
          count={selected.length}
          canInspect={Boolean(single && (single.isSplit || single.parentTransactionId !== null))}
          busy={actions.deleting}
          onBulkEdit={() => {
            setError('');
            setBulkOpen(true);
          }}
          onDeleteSelected={() => {
            setError('');
            setConfirmDelete(true);
          }}
          onClearSelection={clearSelection}
          onSplit={startSplit}
          onInspect={() => {
            setError('');
            if (single) setInspectId(single.id);
          }}
          onEdit={() => {
            if (single) void navigate({ to: '/create-transaction', state: { transaction: single } });
          }}
        />
      )}
      {error && (
        <Alert severity="error" role="alert" onClose={() => setError('')} sx={{ mb: 1 }}>
          {error}
        </Alert>
      )}
      {categories.error && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {categories.error}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ position: 'relative' }}>
        {loading && <LinearProgress aria-label="Loading transactions" sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 3 }} />}
        <TableContainer ref={scrollRef} sx={{ maxHeight, overflow: 'auto' }}>
          {/* Below md the table scrolls sideways in its box; the extra width goes to Description. */}
          <Table stickyHeader size="small" aria-label="Transactions" aria-rowcount={sorted.length + 1} sx={{ tableLayout: 'fixed', minWidth: { xs: 1000, md: 900 } }}>
            <TransactionColGroup />
            <TransactionTableHead
              sort={sort}
              onSort={onSort}
              selectedCount={selected.length}
              rowCount={actions.rows.length}
              onToggleAll={toggleAll}
            />
            <TableBody>
              {sorted.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMN_COUNT} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                    {loading ? 'Loading transactions...' : emptyText}
                  </TableCell>
                </TableRow>
              )}
              {padTop > 0 && (
                <TableRow aria-hidden="true" sx={{ height: padTop }}>
                  <TableCell colSpan={COLUMN_COUNT} sx={{ p: 0, border: 0 }} />
                </TableRow>
              )}
              {items.map((item) => {
                const tx = sorted[item.index];
                return (
                  <TransactionRow
                    key={tx.id}
                    tx={tx}
                    rowIndex={item.index + 2}
                    selected={selection.has(tx.id)}
                    categoryNames={categories.names}
                    onToggle={toggle}
                    onCategoryChange={actions.changeCategory}
                    onTypeChange={actions.changeType}
                  />
                );
              })}
              {padBottom > 0 && (
                <TableRow aria-hidden="true" sx={{ height: padBottom }}>
                  <TableCell colSpan={COLUMN_COUNT} sx={{ p: 0, border: 0 }} />
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>

      <BulkEditDialog
        open={bulkOpen}
        transactionIds={selected.map((tx) => tx.id)}
        categoryNames={categories.names}
        onClose={() => setBulkOpen(false)}
        onUpdated={(rows) => {
          actions.bulkUpdated(rows);
          showNotice(`Updated ${rows.length} transaction${rows.length === 1 ? '' : 's'}`);
        }}
      />
      <ConfirmDialog
        open={confirmDelete}
        title="Delete Selected"
        message={`Are you sure you want to delete ${selected.length} selected transactions? This action cannot be undone.`}
        confirmLabel="Delete"
        destructive
        busy={actions.deleting}
        onConfirm={() => void deleteSelected()}
        onCancel={() => setConfirmDelete(false)}
      />
      <SplitDialog
        parent={splitting?.parent ?? null}
        initial={splitting?.initial}
        categoryNames={categories.names}
        onClose={() => setSplitting(null)}
        onSplit={(details) => {
          actions.splitSaved(details);
          showNotice(`Split into ${details.childTransactions.length} parts`);
        }}
      />
      <InspectSplitDialog
        transactionId={inspectId}
        onClose={() => setInspectId(null)}
        onEdit={(details) => {
          setInspectId(null);
          setSplitting({ parent: details.parentTransaction, initial: rowsFromChildren(details.childTransactions) });
        }}
      />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}
