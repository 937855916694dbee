import { Box, Button, Chip, List, ListItem, Paper, Stack, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import type { HistoryEntryDto } from '../../../shared/schemas/history';
import { ListStatus } from '../../components/ListStatus';
import { Notice, useNotice } from '../../components/Notice';
import { trpc } from '../../lib/trpc';
import { useUndoRedo } from '../../lib/undo';
import { describeRowChange, type HistoryNames } from './rowChanges';

const PAGE = 50;

/** The user's changes, newest first, a page at a time, each with Undo or Redo. */
export function ChangeList() {
  const [pages, setPages] = useState(1);
  const list = trpc.history.list.useQuery({ limit: PAGE * pages, offset: 0 });
  const { run, busy } = useUndoRedo();
  const [notice, showNotice, clearNotice] = useNotice();
  const entries = list.data?.entries ?? [];
  async function act(pick: 'undo' | 'redo', entry: HistoryEntryDto) {
    const { text, ok } = await run(pick, entry);
    showNotice(text, ok ? 'success' : 'error', { offerUndo: false });
  }
  return (
    <Paper>
      <ListStatus
        query={list}
        empty={entries.length === 0}
        loadingLabel="Loading history"
        errorText="Failed to fetch the history"
        emptyText="No changes yet. What you add, edit, import or delete will be listed here."
      />
      <List aria-label="Changes">
        {entries.map((entry) => (
          <ChangeItem key={entry.id} entry={entry} busy={busy} onAct={(pick) => void act(pick, entry)} />
        ))}
      </List>
      {list.data?.hasMore && (
        <Box sx={{ p: 2 }}>
          <Button onClick={() => setPages((n) => n + 1)}>Show older changes</Button>
        </Box>
      )}
      <Notice notice={notice} onClose={clearNotice} />
    </Paper>
  );
}

function ChangeItem({
  entry,
  busy,
  onAct,
}: {
  entry: HistoryEntryDto;
  busy: boolean;
  onAct: (pick: 'undo' | 'redo') => void;
}) {
  const when = new Date(entry.createdAt).toLocaleString();
  return (
    <ListItem divider sx={{ display: 'block' }} aria-label={entry.summary}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Typography sx={{ flex: 1, overflowWrap: 'break-word' }}>{entry.summary}</Typography>
        {entry.state === 'undone' && <Chip size="small" label="Undone" />}
        {entry.state === 'purged' && <Chip size="small" label="Emptied from the trash" />}
        <Typography variant="body2" color="text.secondary">
          {when}
        </Typography>
        {entry.undoable && entry.state === 'done' && (
          <Button size="small" variant="outlined" disabled={busy} onClick={() => onAct('undo')}>
            Undo
          </Button>
        )}
        {entry.undoable && entry.state === 'undone' && (
          <Button size="small" variant="outlined" disabled={busy} onClick={() => onAct('redo')}>
            Redo
          </Button>
        )}
      </Stack>
      {entry.readOnlyReason && entry.state !== 'purged' && (
        <Typography variant="body2" color="text.secondary">
          {entry.readOnlyReason}
        </Typography>
      )}
      <RowChanges entry={entry} />
    </ListItem>
  );
}

/** The user's accounts and categories by id, for the rows' ids and amounts. */
function useHistoryNames(): HistoryNames {
  const accounts = trpc.accounts.list.useQuery();
  const categories = trpc.categories.list.useQuery();
  return useMemo(() => {
    const accountsById = new Map((accounts.data ?? []).map((a) => [a.id, a]));
    const categoriesById = new Map((categories.data ?? []).map((c) => [c.id, c.name]));
    return { account: (id) => accountsById.get(id), category: (id) => categoriesById.get(id) };
  }, [accounts.data, categories.data]);
}

function RowChanges({ entry }: { entry: HistoryEntryDto }) {
  const names = useHistoryNames();
  if (entry.rows.length === 0) return null;
  return (
    <Box component="details" sx={{ mt: 0.5 }}>
      <Box component="summary" sx={{ cursor: 'pointer', color: 'text.secondary' }}>
        {entry.rowCount} row{entry.rowCount === 1 ? '' : 's'} touched
      </Box>
      <Box component="ul" sx={{ my: 0.5, pl: 3 }}>
        {entry.rows.map((row) => (
          <Typography
            component="li"
            variant="body2"
            key={`${row.table}:${row.rowId}`}
            sx={{ overflowWrap: 'break-word' }}
          >
            {row.table} {row.rowId}: {describeRowChange(row.before, row.after, names)}
          </Typography>
        ))}
        {entry.moreRows > 0 && (
          <Typography component="li" variant="body2" color="text.secondary">
            and {entry.moreRows} more
          </Typography>
        )}
      </Box>
    </Box>
  );
}
