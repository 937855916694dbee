import { Box, Checkbox, Chip, NativeSelect, OutlinedInput, TableCell, TableRow } from '@mui/material';
import { memo } from 'react';
import { TRANSACTION_TYPES, type TransactionDto, type TransactionType } from '../../../shared/schemas/transactions';
import { formatCents } from '../../../shared/money';
import { Amount } from './Amount';
import { withCurrent } from './hooks';

export const ROW_HEIGHT = 53;

interface TransactionRowProps {
  tx: TransactionDto;
  /** 1-based position among all rows (header is row 1), for aria-rowindex. */
  rowIndex: number;
  selected: boolean;
  categoryNames: readonly string[];
  onToggle(id: number): void;
  onCategoryChange(tx: TransactionDto, category: string | null): void;
  onTypeChange(tx: TransactionDto, type: TransactionType): void;
}

/** Names a row in its controls' labels: 'Coffee -4.50 on 2024-01-05' (parts say so). */
export function rowLabel(tx: TransactionDto): string {
  return `${tx.description} ${formatCents(tx.amount)} on ${tx.postDate}${tx.parentTransactionId !== null ? ' (split part)' : ''}`;
}

const selectInput = <OutlinedInput size="small" sx={{ fontSize: '0.875rem', width: '100%' }} />;

/** One row of the transaction table; category and type are edited in place. */
export const TransactionRow = memo(function TransactionRow({
  tx,
  rowIndex,
  selected,
  categoryNames,
  onToggle,
  onCategoryChange,
  onTypeChange,
}: TransactionRowProps) {
  const label = rowLabel(tx);
  const options = withCurrent(categoryNames, tx.category);
  return (
    <TableRow hover selected={selected} aria-rowindex={rowIndex} aria-selected={selected} sx={{ height: ROW_HEIGHT }}>
      <TableCell padding="checkbox">
        <Checkbox
          checked={selected}
          onChange={() => onToggle(tx.id)}
          slotProps={{ input: { 'aria-label': `Select transaction ${label}` } }}
        />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{tx.postDate}</TableCell>
      <TableCell sx={{ overflow: 'hidden' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
          <Box component="span" title={tx.description} sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {tx.description}
          </Box>
          {tx.isSplit && <Chip size="small" label="Split" color="primary" variant="outlined" />}
          {tx.parentTransactionId !== null && <Chip size="small" label="Split part" variant="outlined" />}
        </Box>
      </TableCell>
      <TableCell align="right">
        <Amount cents={tx.amount} />
      </TableCell>
      <TableCell>
        <NativeSelect
          value={tx.category ?? ''}
          onChange={(e) => onCategoryChange(tx, e.target.value === '' ? null : e.target.value)}
          input={selectInput}
          inputProps={{ 'aria-label': `Category for ${label}` }}
        >
          <option value="">Uncategorized</option>
          {options.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </NativeSelect>
      </TableCell>
      <TableCell>
        <NativeSelect
          value={tx.type}
          onChange={(e) => onTypeChange(tx, e.target.value as TransactionType)}
          input={selectInput}
          inputProps={{ 'aria-label': `Type for ${label}` }}
        >
          {TRANSACTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </NativeSelect>
      </TableCell>
      <TableCell sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={tx.account ?? undefined}>
        {tx.account ?? ''}
      </TableCell>
    </TableRow>
  );
});
