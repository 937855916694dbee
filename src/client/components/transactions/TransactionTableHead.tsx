import { Checkbox, TableCell, TableHead, TableRow, TableSortLabel } from '@mui/material';
import { memo, useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import type { SortKey, SortState } from './sort';

export const HEADER_HEIGHT = 45;

const COLUMNS: { key: SortKey; label: string; align?: 'right' }[] = [
  { key: 'postDate', label: 'Date' },
  { key: 'description', label: 'Description' },
  { key: 'amount', label: 'Amount', align: 'right' },
  { key: 'category', label: 'Category' },
  { key: 'type', label: 'Type' },
  { key: 'account', label: 'Account' },
];

/** Column widths (table-layout: fixed keeps them steady while rows scroll in and out). */
export function TransactionColGroup() {
  return (
    <colgroup>
      <col style={{ width: 52 }} />
      <col style={{ width: 112 }} />
      <col />
      <col style={{ width: 124 }} />
      <col style={{ width: 190 }} />
      <col style={{ width: 130 }} />
      <col style={{ width: 150 }} />
    </colgroup>
  );
}

interface HeadProps {
  sort: SortState;
  onSort: (key: SortKey) => void;
  selectedCount: number;
  rowCount: number;
  onToggleAll: () => void;
  /** Receives the "Select all" checkbox (focus goes there when the selection is cleared). */
  selectAllRef?: RefObject<HTMLInputElement | null>;
}

/**
 * The column headers are one Tab stop (the sorted column's), ← and → moving between them, so the keyboard
 * reaches the first row in a few presses: Select all, the sorted column, the row.
 */
function moveBetweenHeaders(event: KeyboardEvent<HTMLTableRowElement>) {
  if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
  const buttons = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[data-sort-key]'));
  const index = buttons.indexOf(event.target as HTMLElement);
  if (index < 0) return;
  const next = buttons[index + (event.key === 'ArrowRight' ? 1 : -1)];
  if (!next) return;
  event.preventDefault();
  next.focus();
}

/** Memoised: the grid re-renders every frame while scrolling, the header only when its props change. */
export const TransactionTableHead = memo(function TransactionTableHead({
  sort,
  onSort,
  selectedCount,
  rowCount,
  onToggleAll,
  selectAllRef,
}: HeadProps) {
  const all = rowCount > 0 && selectedCount === rowCount;
  const some = selectedCount > 0 && !all;
  // MUI marks a partial selection with aria-checked="mixed"; the native property makes it valid ARIA.
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (inputRef.current) inputRef.current.indeterminate = some;
    if (selectAllRef) selectAllRef.current = inputRef.current;
  }, [some, selectAllRef]);
  return (
    <TableHead>
      <TableRow aria-rowindex={1} sx={{ height: HEADER_HEIGHT }} onKeyDown={moveBetweenHeaders}>
        <TableCell padding="checkbox">
          <Checkbox
            checked={all}
            indeterminate={some}
            disabled={rowCount === 0}
            onChange={onToggleAll}
            slotProps={{ input: { ref: inputRef, 'aria-label': 'Select all transactions' } }}
          />
        </TableCell>
        {COLUMNS.map((column) => {
          const active = sort.key === column.key;
          return (
            <TableCell key={column.key} align={column.align} sortDirection={active ? sort.direction : false}>
              <TableSortLabel
                active={active}
                direction={active ? sort.direction : 'asc'}
                tabIndex={active ? 0 : -1}
                data-sort-key={column.key}
                onClick={() => onSort(column.key)}
              >
                {column.label}
              </TableSortLabel>
            </TableCell>
          );
        })}
      </TableRow>
    </TableHead>
  );
});
