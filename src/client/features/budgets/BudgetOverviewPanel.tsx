import { Box, List, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { lineItemTypeLabel, UNTRACKED_ID, type BudgetOverview, type LineItemActual } from '../../../shared/budget';
import { formatMoney } from '../../../shared/money';
import { ConvertedNote } from '../../components/ConvertedNote';
import { OverviewRow } from './OverviewRow';
import { sameFilter, type OverviewFilter } from './overviewFilter';

interface BudgetOverviewPanelProps {
  overview: BudgetOverview;
  filter: OverviewFilter;
  onToggle: (filter: Exclude<OverviewFilter, null>) => void;
  /** A category key of the Untracked line as the person wrote the name (keys are lower case). */
  categoryName?: (key: string) => string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Budget bar fill, 0-100 (a display ratio, not money). */
export function barPercent(actual: number, budgeted: number): number {
  if (budgeted <= 0) return actual > 0 ? 100 : 0;
  return Math.max(0, Math.min(100, (actual / budgeted) * 100));
}

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
      <Typography variant="h3" component="h3" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/**
 * The budget overview panel: Transaction Type Totals, Line Items by
 * Type and Budgeted Amounts side by side, stacked on small screens. Every figure comes from
 * computeBudgetOverview; clicking a type, a line item or the split row filters the table.
 */
export function BudgetOverviewPanel({ overview, filter, onToggle, categoryName }: BudgetOverviewPanelProps) {
  return (
    <>
      <ConvertedNote currency={overview.currency} noRate={overview.noRate} />
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'repeat(3, minmax(0, 1fr))' },
          mb: 2,
        }}
      >
        <TypeTotals overview={overview} filter={filter} onToggle={onToggle} />
        <LineItemsByType overview={overview} filter={filter} onToggle={onToggle} categoryName={categoryName} />
        <BudgetedAmounts overview={overview} />
      </Box>
    </>
  );
}

function TypeTotals({ overview, filter, onToggle }: BudgetOverviewPanelProps) {
  const { splits } = overview;
  return (
    <Column title="Transaction Type Totals">
      <List dense disablePadding aria-label="Transaction types">
        {overview.typeTotals.map((row) => {
          const mine = { kind: 'type', type: row.type } as const;
          return (
            <OverviewRow
              key={row.type}
              label={row.type}
              detail={plural(row.count, 'transaction')}
              figure={formatMoney(row.total, { currency: overview.currency })}
              selected={sameFilter(filter, mine)}
              onClick={() => onToggle(mine)}
            />
          );
        })}
        <OverviewRow
          label="Split transactions"
          detail={`${plural(splits.parentCount, 'split transaction')}, ${plural(splits.childCount, 'part')}`}
          figure={formatMoney(splits.childTotal, { currency: overview.currency })}
          selected={sameFilter(filter, { kind: 'split' })}
          onClick={() => onToggle({ kind: 'split' })}
        />
      </List>
      <Box
        sx={{
          display: 'flex',
          justifyContent: 'space-between',
          gap: 1,
          flexWrap: 'wrap',
          px: 2,
          pt: 1,
          borderTop: 1,
          borderColor: 'divider',
        }}
      >
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          Total ({plural(overview.transactionCount, 'transaction')})
        </Typography>
        <Typography
          variant="body2"
          sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
          data-testid="overview-total"
        >
          {formatMoney(overview.total, { currency: overview.currency })}
        </Typography>
      </Box>
    </Column>
  );
}

function itemDetail(item: LineItemActual, categoryName: (key: string) => string = (key) => key): string {
  const count = plural(item.transactionCount, 'transaction');
  if (item.id !== UNTRACKED_ID) return count;
  return item.categories.length > 0 ? `${count}: ${item.categories.map(categoryName).join(', ')}` : count;
}

function LineItemsByType({ overview, filter, onToggle, categoryName }: BudgetOverviewPanelProps) {
  return (
    <Column title="Line Items by Type">
      {overview.byType.map((group) => (
        <Box
          key={group.type}
          component="section"
          aria-label={`${lineItemTypeLabel(group.type)} line items`}
          sx={{ mb: 1 }}
        >
          <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', px: 2, pt: 1 }}>
            <Typography variant="subtitle2" component="h4">
              {lineItemTypeLabel(group.type)}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {group.type === 'Untracked'
                ? formatMoney(group.actual, { currency: overview.currency })
                : `${formatMoney(group.actual, { currency: overview.currency })} of ${formatMoney(group.budgeted, { currency: overview.currency })}`}
            </Typography>
          </Box>
          {group.items.length === 0 ? (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', px: 2, py: 0.5 }}>
              No line items
            </Typography>
          ) : (
            <List dense disablePadding>
              {group.items.map((item) => {
                const mine = { kind: 'lineItem', id: item.id } as const;
                const untracked = item.id === UNTRACKED_ID;
                return (
                  <OverviewRow
                    key={item.id}
                    label={item.name}
                    detail={itemDetail(item, categoryName)}
                    figure={
                      untracked
                        ? formatMoney(item.actual, { currency: overview.currency })
                        : `${formatMoney(item.actual, { currency: overview.currency })} of ${formatMoney(item.budgeted, { currency: overview.currency })}`
                    }
                    progress={untracked ? undefined : barPercent(item.actual, item.budgeted)}
                    over={item.type !== 'Income' && item.actual > item.budgeted}
                    selected={sameFilter(filter, mine)}
                    onClick={() => onToggle(mine)}
                  />
                );
              })}
            </List>
          )}
        </Box>
      ))}
    </Column>
  );
}

function BudgetedAmounts({ overview }: { overview: BudgetOverview }) {
  const { budgeted, actual } = overview;
  const rows: { label: string; budgeted: number | null; actual: number }[] = [
    { label: 'Income', budgeted: budgeted.income, actual: actual.income },
    { label: 'Fixed', budgeted: budgeted.fixed, actual: actual.fixed },
    { label: 'Variable', budgeted: budgeted.variable, actual: actual.variable },
    { label: lineItemTypeLabel('NotCounted'), budgeted: budgeted.notCounted, actual: actual.notCounted },
    { label: 'Untracked', budgeted: null, actual: actual.untracked },
  ];
  const cell = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', px: 1 } as const;
  return (
    <Column title="Budgeted Amounts">
      <Table size="small" aria-label="Budgeted and actual amounts" sx={{ '& th, & td': { px: 1 } }}>
        <TableHead>
          <TableRow>
            <TableCell component="th" scope="col">
              Group
            </TableCell>
            <TableCell component="th" scope="col" align="right">
              Budgeted
            </TableCell>
            <TableCell component="th" scope="col" align="right">
              Actual
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.label}>
              <TableCell component="th" scope="row">
                {row.label}
              </TableCell>
              <TableCell align="right" sx={cell}>
                {row.budgeted === null ? '—' : formatMoney(row.budgeted, { currency: overview.currency })}
              </TableCell>
              <TableCell align="right" sx={cell}>
                {formatMoney(row.actual, { currency: overview.currency })}
              </TableCell>
            </TableRow>
          ))}
          <TableRow sx={{ '& th, & td': { fontWeight: 700, borderBottom: 0 } }}>
            <TableCell component="th" scope="row">
              Net
            </TableCell>
            <TableCell align="right" sx={cell}>
              {formatMoney(budgeted.net, { currency: overview.currency })}
            </TableCell>
            <TableCell align="right" sx={{ ...cell, color: actual.net < 0 ? 'error.main' : undefined }}>
              {formatMoney(actual.net, { currency: overview.currency })}
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
        Net = Income − (Fixed + Variable). Budgeted net {formatMoney(budgeted.net, { currency: overview.currency })},
        actual net {formatMoney(actual.net, { currency: overview.currency })}.
      </Typography>
    </Column>
  );
}
