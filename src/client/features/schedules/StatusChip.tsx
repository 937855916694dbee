import { Chip, type ChipProps } from '@mui/material';
import type { OccurrenceStatus } from '../../../shared/schedules';

const LOOK: Record<OccurrenceStatus, { label: string; color: ChipProps['color']; variant: ChipProps['variant'] }> = {
  upcoming: { label: 'Upcoming', color: 'default', variant: 'outlined' },
  due: { label: 'Due', color: 'warning', variant: 'filled' },
  posted: { label: 'Posted', color: 'success', variant: 'outlined' },
  matched: { label: 'Matched', color: 'success', variant: 'filled' },
  missed: { label: 'Missed', color: 'error', variant: 'filled' },
  skipped: { label: 'Skipped', color: 'default', variant: 'filled' },
};

/** An occurrence's status as a chip: words first, colour second. */
export function StatusChip({ status }: { status: OccurrenceStatus }) {
  const look = LOOK[status];
  return <Chip size="small" label={look.label} color={look.color} variant={look.variant} />;
}
