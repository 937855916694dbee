import {
  Box,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
  useTheme,
} from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useMemo } from 'react';
import {
  categoryBarFilters,
  monthLabel,
  seriesColors,
  type ReportRange,
  type SpendingChart,
} from '../../../shared/reports';
import { must } from '../../../shared/must';
import type { TransactionFilters } from '../../../shared/schemas/transactions';
import { FigureLink } from './FigureLink';
import { axisAmount, figure } from './format';
import { ReportSection } from './ReportSection';
import { useReportCurrency } from './reportCurrency';

interface SpendingSectionProps {
  chart: SpendingChart;
  range: ReportRange;
  table: boolean;
  onOpen: (filters: TransactionFilters) => void;
}

/** Spending by category per month: stacked bars (top 8 and 'Other'), or the same figures as a table. */
export function SpendingSection({ chart, range, table, onOpen }: SpendingSectionProps) {
  const currency = useReportCurrency();
  const mode = useTheme().palette.mode;
  const colors = useMemo(
    () =>
      seriesColors(
        chart.series.map((s) => s.name),
        mode,
        chart.otherName ?? undefined,
      ),
    [chart, mode],
  );
  const empty = chart.series.length === 0;
  return (
    <ReportSection id="spending-heading" title="Spending by category">
      {empty && <Typography color="text.secondary">No spending in this range.</Typography>}
      {!empty && !table && (
        <Box data-testid="spending-chart" sx={{ width: '100%' }}>
          <BarChart
            height={380}
            xAxis={[{ scaleType: 'band', data: chart.months.map(monthLabel) }]}
            yAxis={[{ valueFormatter: (value: number) => axisAmount(value, undefined, currency), width: 64 }]}
            series={chart.series.map((s, index) => ({
              id: `s${index}`,
              label: s.name,
              data: s.values,
              stack: 'spending',
              stackOffset: 'diverging',
              color: colors[s.name],
              valueFormatter: (value: number | null) => figure(value, currency),
            }))}
            onItemClick={(_event, item) => {
              const series = chart.series[Number(String(item.seriesId).slice(1))];
              const month = chart.months[item.dataIndex];
              if (series && month) onOpen(categoryBarFilters(range, month, series.categories));
            }}
            sx={{ '& .MuiBarElement-root': { cursor: 'pointer' } }}
          />
        </Box>
      )}
      {!empty && table && <SpendingTable chart={chart} range={range} />}
    </ReportSection>
  );
}

function SpendingTable({ chart, range }: { chart: SpendingChart; range: ReportRange }) {
  const currency = useReportCurrency();
  const grandTotal = chart.monthTotals.reduce((sum, cents) => sum + cents, 0);
  return (
    <TableContainer>
      <Table size="small" aria-label="Spending by category">
        <TableHead>
          <TableRow>
            <TableCell component="th">Month</TableCell>
            {chart.series.map((s) => (
              <TableCell key={s.name} component="th" align="right">
                {s.name}
              </TableCell>
            ))}
            <TableCell component="th" align="right">
              Total
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {chart.months.map((month, index) => (
            <TableRow key={month}>
              <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                {monthLabel(month)}
              </TableCell>
              {chart.series.map((s) => (
                <TableCell key={s.name} align="right">
                  <FigureLink
                    cents={must(s.values[index], 'a series has a value for each month')}
                    filters={categoryBarFilters(range, month, s.categories)}
                  />
                </TableCell>
              ))}
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {figure(chart.monthTotals[index], currency)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow>
            <TableCell component="th" scope="row">
              Total
            </TableCell>
            {chart.series.map((s) => (
              <TableCell key={s.name} align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {figure(s.total, currency)}
              </TableCell>
            ))}
            <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {figure(grandTotal, currency)}
            </TableCell>
          </TableRow>
        </TableFooter>
      </Table>
    </TableContainer>
  );
}
