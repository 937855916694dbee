import { Box, Chip, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import type { ColumnAssignment, ColumnRole } from '../../../shared/csv/columns';
import { mappingOfColumns } from '../../../shared/csv/content-layout';
import type { ColumnMapping } from '../../../shared/csv/types';

export const ROLE_LABELS: Record<ColumnRole, string> = {
  date: 'Date',
  amount: 'Amount',
  debit: 'Money out',
  credit: 'Money in',
  indicator: 'Debit/credit marker',
  description: 'Description',
  'description-fallback': 'Description (fallback)',
  counterparty: 'Counterparty',
  payee: 'Paid to',
  payer: 'Paid by',
  category: 'Category',
  currency: 'Currency',
  'original-amount': 'Original amount',
  'original-currency': 'Original currency',
};

/** Roles a person can give a column in one click ('ignore' takes the column out). */
const CHOICES: (ColumnRole | 'ignore')[] = ['date', 'amount', 'debit', 'credit', 'description', 'category', 'ignore'];
/** Roles a file has one column of: giving one to a column takes it from the column that had it. */
const SINGLE: ReadonlySet<ColumnRole> = new Set([
  'date',
  'amount',
  'debit',
  'credit',
  'category',
  'indicator',
  'currency',
]);

/** The columns after giving `index` the role `role`: a single role moves, amount and a debit/credit pair exclude each other. */
export function withRole(
  columns: readonly ColumnAssignment[],
  index: number,
  header: string,
  role: ColumnRole | 'ignore',
): ColumnAssignment[] {
  const pair = role === 'debit' || role === 'credit';
  const kept = columns.filter(
    (c) =>
      c.index !== index &&
      !(role !== 'ignore' && SINGLE.has(role) && c.role === role) &&
      !(role === 'amount' && (c.role === 'debit' || c.role === 'credit')) &&
      !(pair && c.role === 'amount'),
  );
  if (role === 'ignore') return kept;
  return [...kept, { index, header, role }].sort((a, b) => a.index - b.index);
}

interface ColumnRolesProps {
  columns: readonly ColumnAssignment[];
  /** Every column of the table, by header ('' when it has none). */
  headers: readonly string[];
  hasHeader: boolean;
  onMappingChange: (mapping: ColumnMapping) => void;
}

/**
 * Which column was taken for what, each a button: choosing another role reads the file again with
 * that change (the mapping is saved for the account when the file is uploaded).
 */
export function ColumnRoles({ columns, headers, hasHeader, onMappingChange }: ColumnRolesProps) {
  const [open, setOpen] = useState<{ anchor: HTMLElement; index: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const width = Math.max(headers.length, ...columns.map((c) => c.index + 1));
  const nameOf = (index: number) => headers[index] || `Column ${index + 1}`;
  function choose(role: ColumnRole | 'ignore') {
    if (!open) return;
    const mapping = mappingOfColumns(withRole(columns, open.index, headers[open.index] ?? '', role), hasHeader);
    setOpen(null);
    if (mapping) {
      setProblem(null);
      onMappingChange(mapping);
    } else setProblem('A file needs a date column and an amount (or money out and money in) column.');
  }
  return (
    <Box component="dd" sx={{ m: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }} role="group" aria-label="Detected columns">
        {Array.from({ length: width }, (_, index) => {
          const column = columns.find((c) => c.index === index);
          return (
            <Chip
              key={index}
              size="small"
              variant={column ? 'outlined' : 'filled'}
              label={`${nameOf(index)} → ${column ? ROLE_LABELS[column.role] : 'Not used'}`}
              onClick={(event) => setOpen({ anchor: event.currentTarget, index })}
              aria-haspopup="menu"
              aria-label={`${nameOf(index)}: ${column ? ROLE_LABELS[column.role] : 'not used'}${column?.byContent ? ' (told by its content)' : ''}. Change`}
            />
          );
        })}
      </Box>
      {problem && (
        <Box role="alert" sx={{ color: 'warning.main', mt: 0.5, fontSize: '0.875rem' }}>
          {problem}
        </Box>
      )}
      <Menu anchorEl={open?.anchor ?? null} open={open !== null} onClose={() => setOpen(null)}>
        {CHOICES.map((role) => (
          <MenuItem key={role} onClick={() => choose(role)}>
            {role === 'ignore' ? 'Not used' : ROLE_LABELS[role]}
          </MenuItem>
        ))}
      </Menu>
    </Box>
  );
}
