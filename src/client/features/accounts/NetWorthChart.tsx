import { Box, Typography, useTheme } from '@mui/material';
import { LineChart } from '@mui/x-charts/LineChart';
import type { NetWorthPoint } from '../../../shared/accounts/net-worth';
import { formatMoney } from '../../../shared/money';
import { monthLabel } from '../../../shared/reports';
import { axisAmount, figure } from '../reports/format';

/** Net worth at the end of each month, as a line, with the first and last figures in words. */
export function NetWorthChart({ points }: { points: readonly NetWorthPoint[] }) {
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
          yAxis={[{ valueFormatter: (value: number) => axisAmount(value), width: 64 }]}
          series={[
            {
              id: 'net-worth',
              label: 'Net worth',
              data: points.map((p) => p.netWorth),
              color: palette.primary.main,
              valueFormatter: figure,
            },
          ]}
          grid={{ horizontal: true }}
          hideLegend
        />
      </Box>
      <Typography component="figcaption" variant="body2" color="text.secondary">
        {`Net worth at the end of each month: ${formatMoney(first.netWorth)} (${monthLabel(first.month)}) to ${formatMoney(last.netWorth)} (${monthLabel(last.month)})`}
      </Typography>
    </Box>
  );
}
