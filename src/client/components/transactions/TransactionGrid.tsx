import {
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableRow,
  Typography,
} from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useId, useMemo, useRef, type RefObject } from 'react';
import { must } from '../../../shared/must';
import type { TransactionDto, TransactionType } from '../../../shared/schemas/transactions';
import type { SortKey, SortState } from './sort';
import type { SuggestionDto } from '../../../shared/schemas/suggest';
import { ROW_HEIGHT, TransactionRow } from './TransactionRow';
import { HEADER_HEIGHT, TransactionColGroup, TransactionTableHead } from './TransactionTableHead';
import { useRowFocus } from './useRowFocus';
import type { FocusRequest } from './useSelection';

const COLUMN_COUNT = 7;

export interface TransactionViewProps {
  /** Rows in display order: a split's parts right after their original (splitGroups.ts). */
  rows: TransactionDto[];
  /** Parts shown beneath their original, indented. */
  nested: ReadonlySet<number>;
  /** Per split original in the list, how many of its parts the list holds. */
  partCounts: ReadonlyMap<number, number>;
  /** Originals whose parts are folded away. */
  folded: ReadonlySet<number>;
  onToggleParts: (id: number) => void;
  selection: ReadonlySet<number>;
  categoryNames: readonly string[];
  /** Learned suggestions for uncategorised rows, by id. */
  suggestions?: ReadonlyMap<number, SuggestionDto>;
  sort: SortState;
  loading: boolean;
  emptyText: string;
  maxHeight: number;
  focusRequest: FocusRequest | null;
  /** The "select all" checkbox, where focus goes when the selection is cleared. */
  selectAllRef: RefObject<HTMLInputElement | null>;
  onSort: (key: SortKey) => void;
  onToggle: (id: number) => void;
  onToggleAll: () => void;
  onEdit: (tx: TransactionDto) => void;
  onCategoryChange: (tx: TransactionDto, category: string | null) => void;
  onTypeChange: (tx: TransactionDto, type: TransactionType) => void;
}

/**
 * The transaction table from 768 px up: sortable columns, inline category and type, rows
 * virtualised so 20,000 of them stay responsive.
 */
export function TransactionGrid(props: TransactionViewProps) {
  const { rows, selection, loading, emptyText, maxHeight } = props;
  const hintId = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const selectedCount = useMemo(() => rows.reduce((n, tx) => (selection.has(tx.id) ? n + 1 : n), 0), [rows, selection]);

  return (
    <>
      <Paper variant="outlined" sx={{ position: 'relative' }}>
        {loading && (
          <LinearProgress
            aria-label="Loading transactions"
            sx={{ position: 'absolute', top: 0, left: 0, right: 0, zIndex: 3 }}
          />
        )}
        <TableContainer ref={scrollRef} sx={{ maxHeight, overflow: 'auto' }}>
          <Table
            stickyHeader
            size="small"
            aria-label="Transactions"
            aria-describedby={hintId}
            aria-rowcount={rows.length + 1}
            sx={{ tableLayout: 'fixed', minWidth: 900 }}
          >
            <TransactionColGroup />
            <TransactionTableHead
              sort={props.sort}
              onSort={props.onSort}
              selectedCount={selectedCount}
              rowCount={rows.length}
              onToggleAll={props.onToggleAll}
              selectAllRef={props.selectAllRef}
            />
            <TableBody>
              {rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMN_COUNT} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                    {loading ? 'Loading transactions...' : emptyText}
                  </TableCell>
                </TableRow>
              )}
              <VirtualRows {...props} scrollRef={scrollRef} />
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      <Typography id={hintId} variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
        Keyboard: Tab moves from row to row; ← and → move between a row's checkbox, category and type; ↑ and ↓ choose a
        category or type, Enter saves it and Escape puts it back.
      </Typography>
    </>
  );
}

/**
 * The rows in the virtual window, with the padding rows that stand for the others. Only this part
 * re-renders while scrolling (the virtualiser's state lives here), not the table around it.
 */
function VirtualRows(props: TransactionViewProps & { scrollRef: RefObject<HTMLDivElement | null> }) {
  const { rows, selection, maxHeight, scrollRef } = props;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Two rows beyond the window: the row Tab or Shift+Tab moves to is always there (the browser then scrolls
    // it in), and a fast scroll, which refills the whole window every frame, builds as few rows as it can.
    overscan: 2,
    paddingStart: HEADER_HEIGHT,
    initialRect: { width: 1000, height: maxHeight },
  });
  useRowFocus(props.focusRequest, rows, (index) => virtualizer.scrollToIndex(index, { align: 'center' }), scrollRef);
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items.at(-1);
  const padTop = first ? first.start - HEADER_HEIGHT : 0;
  const padBottom = last ? virtualizer.getTotalSize() - last.end : 0;
  return (
    <>
      {padTop > 0 && (
        <tr aria-hidden="true" style={{ height: padTop }}>
          <td colSpan={COLUMN_COUNT} style={{ padding: 0, border: 0 }} />
        </tr>
      )}
      {items.map((item) => {
        const tx = must(rows[item.index], 'a virtual item indexes rows');
        return (
          <TransactionRow
            key={tx.id}
            tx={tx}
            rowIndex={item.index + 2}
            selected={selection.has(tx.id)}
            categoryNames={props.categoryNames}
            suggestion={props.suggestions?.get(tx.id)}
            nested={props.nested.has(tx.id)}
            parts={props.partCounts.get(tx.id)}
            expanded={!props.folded.has(tx.id)}
            onToggleParts={props.onToggleParts}
            onToggle={props.onToggle}
            onCategoryChange={props.onCategoryChange}
            onTypeChange={props.onTypeChange}
            scrolling={virtualizer.isScrolling}
          />
        );
      })}
      {padBottom > 0 && (
        <tr aria-hidden="true" style={{ height: padBottom }}>
          <td colSpan={COLUMN_COUNT} style={{ padding: 0, border: 0 }} />
        </tr>
      )}
    </>
  );
}
