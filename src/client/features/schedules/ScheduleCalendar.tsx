import { Box, List, ListItem, ListItemText, Paper, Stack, Typography } from '@mui/material';
import { addDays } from '../../../shared/dates/calendar';
import { formatMoney } from '../../../shared/money';
import type { OccurrenceDto } from '../../../shared/schedules';
import { ListStatus } from '../../components/ListStatus';
import { trpc } from '../../lib/trpc';
import { StatusChip } from './StatusChip';
import { useAccountNames } from '../../components/transactions/hooks';

/** How far back missed and posted occurrences are shown, and how far ahead the list reaches (days). */
const BACK_DAYS = 30;
export const AHEAD_DAYS = 60;

function byDay(occurrences: readonly OccurrenceDto[]): [string, OccurrenceDto[]][] {
  const days = new Map<string, OccurrenceDto[]>();
  for (const o of occurrences) {
    const list = days.get(o.date);
    if (list) list.push(o);
    else days.set(o.date, [o]);
  }
  return [...days];
}

/** A calendar-like list: each of the next 60 days that has occurrences, with their status (and the last month's missed ones). */
export function ScheduleCalendar({ today }: { today: string | null }) {
  const { currencyOf } = useAccountNames();
  const range = today ? { startDate: addDays(today, -BACK_DAYS), endDate: addDays(today, AHEAD_DAYS) } : null;
  const list = trpc.schedules.occurrences.useQuery(range ?? { startDate: '2000-01-01', endDate: '2000-01-01' }, {
    enabled: range !== null,
  });
  // Of the days gone by, only what still needs a look: missed, or due and waiting for its row.
  const shown = (list.data ?? []).filter((o) => o.date >= (today ?? '') || o.status === 'missed' || o.status === 'due');
  const days = byDay(shown);
  return (
    <Paper component="section" aria-labelledby="schedule-calendar-heading" sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id="schedule-calendar-heading" variant="h2" gutterBottom>
        Next 60 days
      </Typography>
      <ListStatus
        query={list}
        empty={days.length === 0}
        loadingLabel="Loading the calendar"
        errorText="Failed to fetch occurrences"
        emptyText="Nothing scheduled in these days."
      />
      {days.map(([date, occurrences]) => (
        <Box key={date} component="section" aria-label={date} sx={{ mb: 1 }}>
          <Typography
            variant="subtitle2"
            component="h3"
            sx={{
              fontWeight: date === today ? 700 : 500,
              color: date < (today ?? '') ? 'text.secondary' : 'text.primary',
            }}
          >
            {date === today ? `${date} (today)` : date}
          </Typography>
          <List dense disablePadding>
            {occurrences.map((o) => (
              <ListItem key={`${o.scheduleId}-${o.scheduledDate}`} disableGutters divider>
                <ListItemText primary={o.scheduleName} secondary={o.account} sx={{ overflowWrap: 'break-word' }} />
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexShrink: 0 }}>
                  <Typography sx={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatMoney(o.amount, { currency: currencyOf(o.account) })}
                  </Typography>
                  <StatusChip status={o.status} />
                </Stack>
              </ListItem>
            ))}
          </List>
        </Box>
      ))}
    </Paper>
  );
}
