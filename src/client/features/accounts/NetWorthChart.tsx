import { Box, Typography, useTheme } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import type { NetWorthPoint } from '../../../shared/accounts/net-worth';
import { formatMoney } from '../../../shared/money';
import { monthLabel } from '../../../shared/reports';
import { axisAmount, figure } from '../reports/format';

/** Net worth at the end of each month, as a line, with the first and last figures in words. */
/**
 * `currency` is the home currency the server valued every account in (each balance at the rate of its
 * month's end); `converted` says some account is in another currency.
 */
export function NetWorthChart({
  points,
  currency,
  converted,
}: {
  points: readonly NetWorthPoint[];
  currency: string | null;
  converted: boolean;
}) {
  const { palette } = useTheme();
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return null;
  return (
    <Box component="figure" sx={{ m: 0 }} data-testid="net-worth-chart">
      <Box aria-hidden="true">
        <LineChart
          height={260}
          xAxis={[{ scaleType: 'point', data: points.map((p) => monthLabel(p.month)) }]}
          yAxis={[{ valueFormatter: (value: number) => axisAmount(value, undefined, currency), width: 64 }]}
          series={[
            {
              id: 'net-worth',
              label: 'Net worth',
              data: points.map((p) => p.netWorth),
              color: palette.primary.main,
              valueFormatter: (value: number | null) => figure(value, currency),
            },
          ]}
          grid={{ horizontal: true }}
          hideLegend
        />
      </Box>
      <Typography component="figcaption" variant="body2" color="text.secondary">
        {`Net worth at the end of each month: ${formatMoney(first.netWorth, { currency })} (${monthLabel(first.month)}) to ${formatMoney(last.netWorth, { currency })} (${monthLabel(last.month)})`}
        {converted &&
          ` in ${currency ?? ''}, each account in another currency valued at the rate of the month’s end${leftOutText(points)}`}
      </Typography>
    </Box>
  );
}

/** "; 2 month-end balances had no rate and are left out" when any point left an account out. */
function leftOutText(points: readonly NetWorthPoint[]): string {
  const missing = points.reduce((n, p) => n + (p.noRate ?? 0), 0);
  if (missing === 0) return '';
  return `; ${missing} month-end balance${missing === 1 ? '' : 's'} had no rate within 7 days and ${missing === 1 ? 'is' : 'are'} left out`;
}
