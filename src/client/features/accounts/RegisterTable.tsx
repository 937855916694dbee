import { Box, Button, Chip, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { must } from '../../../shared/must';
import type { RegisterRow } from '../../../shared/schemas/register';
import { Amount, OriginalAmount } from '../../components/transactions/Amount';
import { RegisterEditRow } from './RegisterEditRow';
import type { RegisterEdits } from './useRegisterEdits';

const COLUMNS = '110px minmax(0, 1fr) minmax(0, 180px) 130px 140px';
const WORK_COLUMNS = '150px minmax(0, 1fr) minmax(0, 160px) 130px 120px minmax(0, 160px) 140px';
const HEADERS = ['Date', 'Description', 'Category', 'Amount', 'Balance'];
/** Each row's cells in order (headers too): where the grid places them. */
const AREAS = ['date', 'desc', 'cat', 'amount', 'balance', 'memo', 'work'];

/**
 * How a row's cells sit: one line of columns where the screen is wide enough, and on a narrow one two lines
 * (three with the work cells), so the register fits the screen instead of scrolling sideways inside it.
 */
export interface RegisterLayout {
  grid: Record<string, unknown>;
  /** A row being edited: its fields where the row's cells were (on a narrow screen, a line or two each). */
  editGrid: Record<string, unknown>;
  rowHeight: number;
  minWidth: number;
}

function useRegisterLayout(work: boolean): RegisterLayout {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down(work ? 'md' : 'sm'));
  const cells = AREAS.slice(0, work ? 7 : 5);
  const placement = Object.fromEntries(cells.map((area, i) => [`& > :nth-child(${i + 1})`, { gridArea: area }]));
  if (!narrow) {
    const grid = { gridTemplateColumns: work ? WORK_COLUMNS : COLUMNS, gridTemplateAreas: `"${cells.join(' ')}"` };
    return {
      grid: { ...grid, ...placement },
      editGrid: { ...grid, ...placement },
      rowHeight: 44,
      minWidth: work ? 980 : 640,
    };
  }
  const lines = ['"date desc amount"', '"cat cat balance"', ...(work ? ['"memo memo work"'] : [])];
  return {
    grid: { gridTemplateColumns: '112px minmax(0, 1fr) auto', gridTemplateAreas: lines.join(' '), ...placement },
    editGrid: {
      gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)',
      gridTemplateAreas: '"date amount" "desc desc" "cat memo" "balance work"',
      ...placement,
    },
    rowHeight: work ? 96 : 60,
    minWidth: 0,
  };
}
/** A cell's text stays on one line, cut with an ellipsis (the whole text is in its title where it may be long). */
const CELL = { px: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;
const CLEARED_MARK = { uncleared: 'Uncleared', cleared: 'Cleared', reconciled: 'Reconciled' } as const;

/**
 * Register rows, newest first, with the balance after each: only the rows in view are in the
 * page (a register may hold 100,000 rows). A split parent shows its amount greyed (it is counted
 * through its parts, listed right below it and indented).
 */
export function RegisterTable({
  rows,
  label,
  opening,
  edits,
  maxHeight = 560,
}: {
  rows: readonly RegisterRow[];
  label: string;
  /** The opening balance, listed below every row when the page reaches it. */
  opening?: { date: string; balance: number; currency: string };
  /** Rows can be edited in place and cleared (the account's own register). */
  edits?: RegisterEdits;
  maxHeight?: number;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const layout = useRegisterLayout(Boolean(edits));
  const headers = edits ? [...HEADERS, 'Memo', 'Cleared'] : HEADERS;
  const count = rows.length + (opening ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => layout.rowHeight,
    overscan: 12,
  });
  // A row being edited takes the height its fields need; the others go back to the layout's height.
  useEffect(() => virtualizer.measure(), [virtualizer, layout.rowHeight, editing]);
  return (
    <Box role="table" aria-label={label} aria-rowcount={count + 1} sx={{ overflowX: 'auto' }}>
      <Box sx={{ minWidth: layout.minWidth }}>
        <RegisterHeader layout={layout} headers={headers} />
        <Box
          ref={scroller}
          role="rowgroup"
          sx={{ maxHeight, overflowY: 'auto', position: 'relative' }}
          tabIndex={0}
          aria-label={`${label} rows`}
        >
          <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              if (opening && item.index === rows.length)
                return (
                  <OpeningRow key="opening" opening={opening} layout={layout} index={item.index} start={item.start} />
                );
              const row = must(rows[item.index], 'a virtual item indexes rows');
              if (edits && editing === row.id)
                return (
                  <RegisterEditRow
                    key={row.id}
                    row={row}
                    grid={layout.editGrid}
                    height={layout.rowHeight}
                    measure={virtualizer.measureElement}
                    start={item.start}
                    index={item.index}
                    onCancel={() => setEditing(null)}
                    onSave={(patch) => {
                      setEditing(null);
                      void edits.save(row, patch);
                    }}
                  />
                );
              return (
                <RegisterRowView
                  key={row.id}
                  row={row}
                  layout={layout}
                  index={item.index}
                  start={item.start}
                  edits={edits}
                  onEdit={() => setEditing(row.id)}
                />
              );
            })}
          </Box>
        </Box>
      </Box>
    </Box>
  );
}

/** The column headers (amounts and balances right-aligned). */
function RegisterHeader({ layout, headers }: { layout: RegisterLayout; headers: readonly string[] }) {
  return (
    <Box role="rowgroup">
      <Box
        role="row"
        aria-rowindex={1}
        sx={{
          display: 'grid',
          ...layout.grid,
          py: 1,
          borderBottom: 2,
          borderColor: 'divider',
          fontWeight: 600,
        }}
      >
        {headers.map((name, index) => (
          <Box
            key={name}
            role="columnheader"
            sx={{ ...CELL, textAlign: index === 3 || index === 4 ? 'right' : 'left' }}
          >
            {name}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

interface RegisterRowViewProps {
  row: RegisterRow;
  layout: RegisterLayout;
  /** The row's place in the virtual list, and its offset from the top. */
  index: number;
  start: number;
  edits?: RegisterEdits;
  onEdit: () => void;
}

/** One register row; a split's part is indented below its parent, whose own amount is greyed. */
function RegisterRowView({ row, layout, index, start, edits, onEdit }: RegisterRowViewProps) {
  const part = row.parentTransactionId !== null;
  return (
    <Box
      role="row"
      aria-rowindex={index + 2}
      sx={{
        display: 'grid',
        ...layout.grid,
        alignItems: 'center',
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height: layout.rowHeight,
        transform: `translateY(${start}px)`,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Box role="cell" sx={{ ...CELL, fontVariantNumeric: 'tabular-nums' }}>
        {row.postDate}
      </Box>
      <Box role="cell" sx={{ ...CELL, pl: part ? 4 : 1 }} title={row.description}>
        {part && <span aria-hidden="true">↳ </span>}
        {row.description}
        {row.isSplit && <Chip size="small" label="Split" variant="outlined" sx={{ ml: 1 }} />}
      </Box>
      <Box role="cell" sx={CELL}>
        {row.category ??
          (row.isSplit ? (
            ''
          ) : (
            <Typography component="span" variant="body2" color="text.secondary">
              Uncategorized
            </Typography>
          ))}
      </Box>
      <Box
        role="cell"
        sx={{ ...CELL, textAlign: 'right', opacity: row.isSplit ? 0.6 : 1 }}
        title={row.isSplit ? 'Counted through its parts' : undefined}
      >
        <Amount cents={row.amount} currency={row.currency} />
        <OriginalAmount tx={row} />
      </Box>
      <Box role="cell" sx={{ ...CELL, textAlign: 'right' }}>
        <Amount cents={row.runningBalance} currency={row.currency} />
      </Box>
      {edits && <WorkCells row={row} edits={edits} onEdit={onEdit} />}
    </Box>
  );
}

/** The opening balance: the start of the walk, below every transaction. */
function OpeningRow({
  opening,
  layout,
  index,
  start,
}: {
  opening: { date: string; balance: number; currency: string };
  layout: RegisterLayout;
  index: number;
  start: number;
}) {
  return (
    <Box
      role="row"
      aria-rowindex={index + 2}
      data-testid="opening-balance-row"
      sx={{
        display: 'grid',
        ...layout.grid,
        alignItems: 'center',
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height: layout.rowHeight,
        transform: `translateY(${start}px)`,
        borderBottom: 1,
        borderColor: 'divider',
        fontStyle: 'italic',
      }}
    >
      <Box role="cell" sx={{ ...CELL, fontVariantNumeric: 'tabular-nums' }}>
        {opening.date}
      </Box>
      <Box role="cell" sx={CELL}>
        Opening balance
      </Box>
      <Box role="cell" sx={CELL} />
      <Box role="cell" sx={{ ...CELL, textAlign: 'right' }}>
        <Amount cents={opening.balance} currency={opening.currency} />
      </Box>
      <Box role="cell" sx={{ ...CELL, textAlign: 'right' }}>
        <Amount cents={opening.balance} currency={opening.currency} />
      </Box>
    </Box>
  );
}

/** The memo, the cleared status (a click clears or unclears) and Edit, in the account's own register. */
function WorkCells({ row, edits, onEdit }: { row: RegisterRow; edits: RegisterEdits; onEdit: () => void }) {
  const next = row.cleared === 'uncleared' ? 'cleared' : row.cleared === 'cleared' ? 'uncleared' : null;
  return (
    <>
      <Box role="cell" sx={CELL} title={row.memo ?? undefined}>
        {row.memo ?? ''}
      </Box>
      <Box role="cell" sx={{ display: 'flex', gap: 0.5, alignItems: 'center' }}>
        <Button
          size="small"
          variant={row.cleared === 'uncleared' ? 'outlined' : 'contained'}
          color={row.cleared === 'reconciled' ? 'success' : 'primary'}
          aria-label={`${CLEARED_MARK[row.cleared]}: ${row.description}`}
          aria-pressed={row.cleared !== 'uncleared'}
          disabled={next === null}
          onClick={() => next && void edits.save(row, { cleared: next })}
          sx={{ minWidth: 0, px: 1 }}
        >
          {row.cleared === 'reconciled' ? 'R' : 'C'}
        </Button>
        <Button size="small" onClick={onEdit} aria-label={`Edit ${row.description}`}>
          Edit
        </Button>
      </Box>
    </>
  );
}
