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
import { BarPlot } from '@mui/x-charts/BarChart';
import { ChartsAxisHighlight } from '@mui/x-charts/ChartsAxisHighlight';
import { ChartsDataProvider } from '@mui/x-charts/ChartsDataProvider';
import { ChartsGrid } from '@mui/x-charts/ChartsGrid';
import { ChartsLegend } from '@mui/x-charts/ChartsLegend';
import { ChartsSurface } from '@mui/x-charts/ChartsSurface';
import { ChartsTooltip } from '@mui/x-charts/ChartsTooltip';
import { ChartsWrapper } from '@mui/x-charts/ChartsWrapper';
import { ChartsXAxis } from '@mui/x-charts/ChartsXAxis';
import { ChartsYAxis } from '@mui/x-charts/ChartsYAxis';
import { LinePlot, MarkPlot } from '@mui/x-charts/LineChart';
import {
  cashflowBarFilters,
  cashflowTotals,
  monthLabel,
  netFilters,
  type MonthlyReportRow,
  type ReportRange,
} from '../../../shared/reports';
import type { TransactionFilters } from '../../../shared/schemas/transactions';
import { FigureLink } from './FigureLink';
import { axisAmount, figure } from './format';
import { ReportSection } from './ReportSection';
import { useReportCurrency } from './reportCurrency';

interface CashflowSectionProps {
  report: MonthlyReportRow[];
  range: ReportRange;
  table: boolean;
  onOpen: (filters: TransactionFilters) => void;
}

/** Income against expenses per month (bars) with the net as a line, or the same figures as a table. */
export function CashflowSection({ report, range, table, onOpen }: CashflowSectionProps) {
  return (
    <ReportSection id="cashflow-heading" title="Income and expenses">
      {report.length === 0 && <Typography color="text.secondary">No months in this range.</Typography>}
      {report.length > 0 && !table && <CashflowChart report={report} range={range} onOpen={onOpen} />}
      {report.length > 0 && table && <CashflowTable report={report} range={range} />}
    </ReportSection>
  );
}

function CashflowChart({ report, range, onOpen }: Omit<CashflowSectionProps, 'table'>) {
  const currency = useReportCurrency();
  const { palette } = useTheme();
  const dark = palette.mode === 'dark';
  const months = report.map((row) => row.month);
  const open = (seriesId: string | number, dataIndex: number | undefined) => {
    const month = dataIndex === undefined ? undefined : months[dataIndex];
    if (!month) return;
    if (seriesId === 'income') onOpen(cashflowBarFilters(range, month, 'in'));
    else if (seriesId === 'expenses') onOpen(cashflowBarFilters(range, month, 'out'));
    else if (seriesId === 'net') onOpen(netFilters(range, month));
  };
  return (
    <Box data-testid="cashflow-chart" sx={{ width: '100%' }}>
      <ChartsDataProvider
        height={340}
        xAxis={[{ id: 'months', scaleType: 'band', data: months.map(monthLabel) }]}
        yAxis={[{ id: 'cents', valueFormatter: (value: number) => axisAmount(value, undefined, currency), width: 64 }]}
        series={[
          {
            type: 'bar',
            id: 'income',
            label: 'Income',
            data: report.map((r) => r.income),
            color: dark ? palette.success.light : palette.success.main,
            valueFormatter: (value: number | null) => figure(value, currency),
          },
          {
            type: 'bar',
            id: 'expenses',
            label: 'Expenses',
            data: report.map((r) => r.expenses),
            color: dark ? palette.error.light : palette.error.main,
            valueFormatter: (value: number | null) => figure(value, currency),
          },
          {
            type: 'line',
            id: 'net',
            label: 'Net',
            data: report.map((r) => r.net),
            color: palette.text.primary,
            valueFormatter: (value: number | null) => figure(value, currency),
          },
        ]}
      >
        <ChartsWrapper legendPosition={{ vertical: 'bottom', horizontal: 'center' }}>
          <ChartsLegend />
          <ChartsSurface>
            <ChartsGrid horizontal />
            <BarPlot onItemClick={(_event, item) => open(item.seriesId, item.dataIndex)} />
            <LinePlot />
            <MarkPlot onItemClick={(_event, item) => open(item.seriesId, item.dataIndex)} />
            <ChartsXAxis axisId="months" />
            <ChartsYAxis axisId="cents" />
            <ChartsAxisHighlight x="band" />
          </ChartsSurface>
          <ChartsTooltip trigger="axis" />
        </ChartsWrapper>
      </ChartsDataProvider>
    </Box>
  );
}

function CashflowTable({ report, range }: { report: MonthlyReportRow[]; range: ReportRange }) {
  const currency = useReportCurrency();
  const totals = cashflowTotals(report);
  return (
    <TableContainer>
      <Table size="small" aria-label="Income and expenses">
        <TableHead>
          <TableRow>
            <TableCell component="th">Month</TableCell>
            <TableCell component="th" align="right">
              Income
            </TableCell>
            <TableCell component="th" align="right">
              Expenses
            </TableCell>
            <TableCell component="th" align="right">
              Net
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {report.map((row) => (
            <TableRow key={row.month}>
              <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                {monthLabel(row.month)}
              </TableCell>
              <TableCell align="right">
                <FigureLink cents={row.income} filters={cashflowBarFilters(range, row.month, 'in')} />
              </TableCell>
              <TableCell align="right">
                <FigureLink cents={row.expenses} filters={cashflowBarFilters(range, row.month, 'out')} />
              </TableCell>
              <TableCell align="right">
                <FigureLink cents={row.net} filters={netFilters(range, row.month)} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow>
            <TableCell component="th" scope="row">
              Total
            </TableCell>
            <TableCell align="right">{figure(totals.income, currency)}</TableCell>
            <TableCell align="right">{figure(totals.expenses, currency)}</TableCell>
            <TableCell align="right">{figure(totals.net, currency)}</TableCell>
          </TableRow>
        </TableFooter>
      </Table>
    </TableContainer>
  );
}
