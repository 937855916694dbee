import { Box, Button, Chip, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';
import { must } from '../../../shared/must';
import type { RegisterRow } from '../../../shared/schemas/register';
import { Amount, OriginalAmount } from '../../components/transactions/Amount';
import { RegisterEditRow } from './RegisterEditRow';
import type { RegisterEdits } from './useRegisterEdits';

const ROW_HEIGHT = 44;
const COLUMNS = '110px minmax(0, 1fr) minmax(0, 180px) 130px 140px';
const WORK_COLUMNS = '150px minmax(0, 1fr) minmax(0, 160px) 130px 120px minmax(0, 160px) 140px';
const HEADERS = ['Date', 'Description', 'Category', 'Amount', 'Balance'];
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
  const columns = edits ? WORK_COLUMNS : COLUMNS;
  const headers = edits ? [...HEADERS, 'Memo', 'Cleared'] : HEADERS;
  const count = rows.length + (opening ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  return (
    <Box role="table" aria-label={label} aria-rowcount={count + 1} sx={{ overflowX: 'auto' }}>
      <Box sx={{ minWidth: edits ? 980 : 640 }}>
        <RegisterHeader columns={columns} headers={headers} />
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
                return <OpeningRow key="opening" opening={opening} index={item.index} start={item.start} />;
              const row = must(rows[item.index], 'a virtual item indexes rows');
              if (edits && editing === row.id)
                return (
                  <RegisterEditRow
                    key={row.id}
                    row={row}
                    columns={columns}
                    height={ROW_HEIGHT}
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
                  columns={columns}
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
function RegisterHeader({ columns, headers }: { columns: string; headers: readonly string[] }) {
  return (
    <Box role="rowgroup">
      <Box
        role="row"
        aria-rowindex={1}
        sx={{
          display: 'grid',
          gridTemplateColumns: columns,
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
  columns: string;
  /** The row's place in the virtual list, and its offset from the top. */
  index: number;
  start: number;
  edits?: RegisterEdits;
  onEdit: () => void;
}

/** One register row; a split's part is indented below its parent, whose own amount is greyed. */
function RegisterRowView({ row, columns, index, start, edits, onEdit }: RegisterRowViewProps) {
  const part = row.parentTransactionId !== null;
  return (
    <Box
      role="row"
      aria-rowindex={index + 2}
      sx={{
        display: 'grid',
        gridTemplateColumns: columns,
        alignItems: 'center',
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height: ROW_HEIGHT,
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
  index,
  start,
}: {
  opening: { date: string; balance: number; currency: string };
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
        gridTemplateColumns: COLUMNS,
        alignItems: 'center',
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        height: ROW_HEIGHT,
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
