import { Alert, Box, Link, List, ListItem, ListItemText, Typography } from '@mui/material';
import { Link as RouterLink } from '@tanstack/react-router';
import { formatMoney } from '../../../shared/money';
import { trpc } from '../../lib/trpc';
import { StatusChip } from './StatusChip';
import { useAccountNames } from '../../components/transactions/hooks';

/** Days ahead "Due soon" looks. */
const SOON_DAYS = 7;

/** What schedules bring in the next week, above the transactions; nothing when nothing is due. */
export function DueSoon() {
  const { currencyOf } = useAccountNames();
  const upcoming = trpc.schedules.upcoming.useQuery({ days: SOON_DAYS });
  const items = upcoming.data?.occurrences ?? [];
  if (items.length === 0) return null;
  return (
    <Alert
      severity="info"
      icon={false}
      sx={{ mb: 2 }}
      component="section"
      role="region"
      aria-labelledby="due-soon-heading"
    >
      <Typography id="due-soon-heading" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        Due soon
      </Typography>
      <List dense disablePadding aria-label="Due soon">
        {items.map((o) => (
          <ListItem key={`${o.scheduleId}-${o.scheduledDate}`} disableGutters sx={{ gap: 1 }}>
            <ListItemText primary={`${o.date} · ${o.scheduleName}`} secondary={o.account} />
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
              <Typography sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatMoney(o.amount, { currency: currencyOf(o.account) })}
              </Typography>
              <StatusChip status={o.status} />
            </Box>
          </ListItem>
        ))}
      </List>
      <Link component={RouterLink} to="/schedules">
        All schedules
      </Link>
    </Alert>
  );
}
