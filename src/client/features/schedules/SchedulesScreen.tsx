import { Box, Button, Chip, List, ListItem, ListItemText, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { localIsoDate } from '../../../shared/dates/calendar';
import { formatMoney } from '../../../shared/money';
import type { ScheduleDto } from '../../../shared/schedules';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ListStatus } from '../../components/ListStatus';
import { Notice, useNotice } from '../../components/Notice';
import { refusalMessage, trpc } from '../../lib/trpc';
import { ScheduleCalendar } from './ScheduleCalendar';
import { ScheduleFormDialog } from './ScheduleFormDialog';
import { ScheduleSuggestions } from './ScheduleSuggestions';
import { useAccountNames } from '../../components/transactions/hooks';

/**
 * Schedules (/schedules): the user's scheduled transactions with their next date and status, to
 * create, edit, skip, post early and delete; what history suggests; and the next 60 days.
 */
export function SchedulesScreen() {
  const [editing, setEditing] = useState<ScheduleDto | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ScheduleDto | null>(null);
  const [notice, showNotice, clearNotice] = useNotice();
  const [clientToday] = useState(() => localIsoDate(new Date()));
  const list = trpc.schedules.list.useQuery();
  const accounts = trpc.accounts.list.useQuery();
  // The server's today (the calendar and the form start from it).
  const upcoming = trpc.schedules.upcoming.useQuery({ days: 1 });
  const today = upcoming.data?.startDate ?? null;
  const actions = useOccurrenceActions(showNotice);
  const schedules = list.data ?? [];
  const accountNames = (accounts.data ?? []).map((a) => a.name);

  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Typography variant="h1" gutterBottom>
        Schedules
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Rent, pay and subscriptions that come back: a schedule posts them on their day, or waits for the bank’s row and
        matches it.
      </Typography>
      <Button variant="contained" sx={{ mb: 2 }} disabled={accountNames.length === 0} onClick={() => setEditing('new')}>
        New schedule
      </Button>
      {accounts.isSuccess && accountNames.length === 0 && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          Create an account first (on the Upload screen): a schedule belongs to an account.
        </Typography>
      )}
      <ScheduleSuggestions
        onCreated={(schedule) => showNotice(`Schedule '${schedule.name}' created`)}
        onError={(message) => showNotice(message, 'error')}
      />
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <ScheduleList
          query={list}
          schedules={schedules}
          busy={actions.busy}
          onEdit={setEditing}
          onSkip={actions.skip}
          onPostNow={actions.postNow}
          onDelete={setDeleting}
        />
        <Box sx={{ flex: 2, width: '100%' }}>
          <ScheduleCalendar today={today} />
        </Box>
      </Stack>
      {editing !== null && (
        <ScheduleFormDialog
          schedule={editing === 'new' ? null : editing}
          accounts={accountNames}
          today={today ?? clientToday}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            showNotice(`Schedule '${saved.name}' saved`);
          }}
        />
      )}
      <DeleteScheduleDialog schedule={deleting} showNotice={showNotice} onDone={() => setDeleting(null)} />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}

interface ScheduleListProps {
  query: { isLoading: boolean; isError: boolean; isSuccess: boolean };
  schedules: readonly ScheduleDto[];
  busy: boolean;
  onEdit: (schedule: ScheduleDto) => void;
  onSkip: (schedule: ScheduleDto) => void;
  onPostNow: (schedule: ScheduleDto) => void;
  onDelete: (schedule: ScheduleDto) => void;
}

function ScheduleList({ query, schedules, busy, onEdit, onSkip, onPostNow, onDelete }: ScheduleListProps) {
  return (
    <Paper component="section" aria-labelledby="schedules-heading" sx={{ flex: 3, width: '100%' }}>
      <Typography id="schedules-heading" variant="h2" sx={{ p: { xs: 2, sm: 3 }, pb: 0 }}>
        Your schedules
      </Typography>
      <ListStatus
        query={query}
        empty={schedules.length === 0}
        loadingLabel="Loading schedules"
        errorText="Failed to fetch schedules"
        emptyText="No schedules yet. Create one, or one that your history suggests."
      />
      {schedules.length > 0 && (
        <List aria-label="Schedules">
          {schedules.map((schedule) => (
            <ScheduleRow
              key={schedule.id}
              schedule={schedule}
              busy={busy}
              onEdit={() => onEdit(schedule)}
              onSkip={() => onSkip(schedule)}
              onPostNow={() => onPostNow(schedule)}
              onDelete={() => onDelete(schedule)}
            />
          ))}
        </List>
      )}
    </Paper>
  );
}

interface ScheduleRowProps {
  schedule: ScheduleDto;
  busy: boolean;
  onEdit: () => void;
  onSkip: () => void;
  onPostNow: () => void;
  onDelete: () => void;
}

/** One schedule: what, how often, its chips (how it is paid, the next date, missed ones) and its actions. */
function ScheduleRow({ schedule, busy, onEdit, onSkip, onPostNow, onDelete }: ScheduleRowProps) {
  const { currencyOf } = useAccountNames();
  const open = schedule.nextDate !== null;
  return (
    <ListItem divider sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <ListItemText
        primary={`${schedule.name} · ${formatMoney(schedule.amount, { currency: currencyOf(schedule.account) })}`}
        secondary={`${schedule.recurrenceText} · ${schedule.account} · ${schedule.description}`}
        sx={{ overflowWrap: 'break-word', minWidth: 220, flex: '1 1 320px' }}
      />
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <Chip size="small" variant="outlined" label={schedule.mode === 'post' ? 'Posts itself' : 'Expected'} />
        <Chip size="small" color={open ? 'primary' : 'default'} label={open ? `Next ${schedule.nextDate}` : 'Ended'} />
        {schedule.missed > 0 && <Chip size="small" color="error" label={`${schedule.missed} missed`} />}
      </Stack>
      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button size="small" onClick={onEdit} aria-label={`Edit ${schedule.name}`}>
          Edit
        </Button>
        <Button size="small" onClick={onSkip} disabled={!open || busy} aria-label={`Skip the next ${schedule.name}`}>
          Skip next
        </Button>
        <Button
          size="small"
          onClick={onPostNow}
          disabled={!open || busy}
          aria-label={`Post the next ${schedule.name} now`}
        >
          Post now
        </Button>
        <Button size="small" color="error" onClick={onDelete} aria-label={`Delete ${schedule.name}`}>
          Delete
        </Button>
      </Stack>
    </ListItem>
  );
}

/** Skip the next occurrence, or post it now; the lists and the transactions refresh after. */
function useOccurrenceActions(showNotice: ReturnType<typeof useNotice>[1]) {
  const utils = trpc.useUtils();
  const refresh = () => Promise.all([utils.schedules.invalidate(), utils.transactions.invalidate()]);
  const skip = trpc.schedules.skip.useMutation({
    onSuccess: async (o) => {
      await refresh();
      showNotice(`Skipped '${o.scheduleName}' on ${o.date}`);
    },
    onError: (e) => showNotice(refusalMessage(e, 'Failed to skip'), 'error'),
  });
  const postNow = trpc.schedules.postNow.useMutation({
    onSuccess: async (o) => {
      await refresh();
      showNotice(`Posted '${o.scheduleName}' (due ${o.date}) today`);
    },
    onError: (e) => showNotice(refusalMessage(e, 'Failed to post'), 'error'),
  });
  return {
    busy: skip.isPending || postNow.isPending,
    skip: (s: ScheduleDto) => skip.mutate({ id: s.id }),
    postNow: (s: ScheduleDto) => postNow.mutate({ id: s.id }),
  };
}

function DeleteScheduleDialog({
  schedule,
  showNotice,
  onDone,
}: {
  schedule: ScheduleDto | null;
  showNotice: ReturnType<typeof useNotice>[1];
  onDone: () => void;
}) {
  const utils = trpc.useUtils();
  const remove = trpc.schedules.delete.useMutation({
    onSuccess: async (result) => {
      await utils.schedules.invalidate();
      showNotice(result.message);
      onDone();
    },
    onError: (e) => {
      showNotice(refusalMessage(e, 'Failed to delete the schedule'), 'error');
      onDone();
    },
  });
  return (
    <ConfirmDialog
      open={schedule !== null}
      title="Delete schedule"
      message={`Delete the schedule '${schedule?.name ?? ''}'? The transactions it posted or matched stay.`}
      confirmLabel="Delete"
      destructive
      busy={remove.isPending}
      onConfirm={() => schedule && remove.mutate({ id: schedule.id })}
      onCancel={onDone}
    />
  );
}
