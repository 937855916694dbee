import { Box, Chip, Paper, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { formatMoney } from '../../../shared/money';
import type { UpcomingOccurrenceDto } from '../../../shared/schedules';
import { trpc } from '../../lib/trpc';
import { useAccountNames } from '../../components/transactions/hooks';

export const FORECAST_DAYS = [30, 90] as const;
export type ForecastDays = (typeof FORECAST_DAYS)[number];

interface AccountUpcomingProps {
  accountId: number;
  days: ForecastDays;
  onDays: (days: ForecastDays) => void;
}

/**
 * An account's scheduled occurrences of the next 30 or 90 days with the balance projected after
 * each, shown beside the register and marked as scheduled: they are not transactions yet.
 */
export function AccountUpcoming({ accountId, days, onDays }: AccountUpcomingProps) {
  const upcoming = trpc.schedules.upcoming.useQuery({ days, accountId });
  const items = upcoming.data?.occurrences ?? [];
  return (
    <Paper component="section" aria-labelledby="upcoming-heading" sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 1 }}>
        <Typography id="upcoming-heading" variant="h2" sx={{ flexGrow: 1 }}>
          Scheduled
        </Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          color="primary"
          aria-label="Days ahead"
          value={days}
          onChange={(_e, value: ForecastDays | null) => value && onDays(value)}
        >
          {FORECAST_DAYS.map((n) => (
            <ToggleButton key={n} value={n} sx={{ textTransform: 'none' }}>
              {`Next ${n} days`}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Box>
      {upcoming.isSuccess && items.length === 0 && (
        <Typography color="text.secondary">{`Nothing scheduled in the next ${days} days.`}</Typography>
      )}
      {items.length > 0 && <UpcomingTable items={items} />}
    </Paper>
  );
}

/** The occurrences with their projected balances, in italics: scheduled, not yet transactions. */
function UpcomingTable({ items }: { items: readonly UpcomingOccurrenceDto[] }) {
  const { currencyOf } = useAccountNames();
  return (
    <Box role="table" aria-label="Scheduled occurrences" sx={{ overflowX: 'auto' }}>
      <Box role="rowgroup">
        <Box
          role="row"
          sx={{
            display: 'grid',
            gridTemplateColumns: ROW,
            fontWeight: 600,
            py: 0.5,
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          {['Date', 'Scheduled', 'Amount', 'Projected balance'].map((name, i) => (
            <Box key={name} role="columnheader" sx={{ px: 1, textAlign: i >= 2 ? 'right' : 'left' }}>
              {name}
            </Box>
          ))}
        </Box>
      </Box>
      <Box role="rowgroup">
        {items.map((o) => (
          <Box
            key={`${o.scheduleId}-${o.scheduledDate}`}
            role="row"
            sx={{
              display: 'grid',
              gridTemplateColumns: ROW,
              py: 0.5,
              borderBottom: 1,
              borderColor: 'divider',
              fontStyle: 'italic',
            }}
          >
            <Box role="cell" sx={{ px: 1 }}>
              {o.date}
            </Box>
            <Box role="cell" sx={{ px: 1, overflowWrap: 'break-word' }}>
              {o.scheduleName} <Chip size="small" variant="outlined" label={o.status === 'due' ? 'Due' : 'Scheduled'} />
            </Box>
            <Box role="cell" sx={{ px: 1, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
              {formatMoney(o.amount, { currency: currencyOf(o.account) })}
            </Box>
            <Box role="cell" sx={{ px: 1, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }}>
              {formatMoney(o.projectedBalance, { currency: currencyOf(o.account) })}
            </Box>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

const ROW = '110px minmax(120px, 1fr) 110px 150px';
