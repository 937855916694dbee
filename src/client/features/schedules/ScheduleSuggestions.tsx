import { Button, List, ListItem, ListItemText, Paper, Typography } from '@mui/material';
import { formatMoney } from '../../../shared/money';
import type { ScheduleDto, ScheduleSuggestionDto } from '../../../shared/schedules';
import { refusalMessage, trpc } from '../../lib/trpc';
import { useAccountNames } from '../../components/transactions/hooks';

interface ScheduleSuggestionsProps {
  onCreated: (schedule: ScheduleDto) => void;
  onError: (message: string) => void;
}

/**
 * Schedules found in the history: the same payee at a regular interval with a stable amount. One
 * click creates it as expected from the bank (the rows came from it), from its next date on.
 */
export function ScheduleSuggestions({ onCreated, onError }: ScheduleSuggestionsProps) {
  const { currencyOf } = useAccountNames();
  const list = trpc.schedules.suggestions.useQuery();
  const utils = trpc.useUtils();
  const create = trpc.schedules.create.useMutation({
    onSuccess: async (schedule) => {
      await utils.schedules.invalidate();
      onCreated(schedule);
    },
    onError: (error) => onError(refusalMessage(error, 'Failed to create the schedule')),
  });
  const suggestions = list.data ?? [];
  if (suggestions.length === 0) return null;
  const use = (s: ScheduleSuggestionDto) =>
    create.mutate({
      name: s.name,
      account: s.accountId,
      description: s.description,
      amount: s.amount,
      amountTolerance: s.amountTolerance,
      recurrence: s.recurrence,
      mode: 'expect',
      startDate: s.nextDate,
    });
  return (
    <Paper component="section" aria-labelledby="schedule-suggestions-heading" sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}>
      <Typography id="schedule-suggestions-heading" variant="h2" gutterBottom>
        Found in your history
      </Typography>
      <List dense aria-label="Suggested schedules">
        {suggestions.map((s) => {
          const range =
            s.amountRange.min === s.amountRange.max
              ? formatMoney(s.amount, { currency: currencyOf(s.account) })
              : `${formatMoney(s.amountRange.min, { currency: currencyOf(s.account) })} to ${formatMoney(s.amountRange.max, { currency: currencyOf(s.account) })}`;
          return (
            <ListItem
              key={`${s.accountId}-${s.description}`}
              divider
              sx={{ gap: 1, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}
            >
              <ListItemText
                primary={`${s.name} · ${s.interval}`}
                secondary={`${s.account} · ${range} · seen ${s.occurrences} times · next ${s.nextDate}`}
                sx={{ overflowWrap: 'break-word' }}
              />
              <Button
                size="small"
                variant="outlined"
                disabled={create.isPending}
                onClick={() => use(s)}
                aria-label={`Create a schedule for ${s.name}`}
              >
                Create
              </Button>
            </ListItem>
          );
        })}
      </List>
    </Paper>
  );
}
