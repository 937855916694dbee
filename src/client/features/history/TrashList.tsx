import { Box, Button, Checkbox, List, ListItem, ListItemIcon, ListItemText, Paper, Stack } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatMoney } from '../../../shared/money';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ListStatus } from '../../components/ListStatus';
import { Notice, useNotice } from '../../components/Notice';
import { refusalMessage, trpc } from '../../lib/trpc';
import { useAccountNames } from '../../components/transactions/hooks';

/** Deleted transactions waiting in the trash: restore the chosen ones, or empty it for good. */
export function TrashList() {
  const { currencyOf } = useAccountNames();
  const trash = trpc.history.trash.useQuery();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<number[]>([]);
  const [emptying, setEmptying] = useState(false);
  const [notice, showNotice, clearNotice] = useNotice();
  const refresh = () => queryClient.invalidateQueries();
  const restore = trpc.history.restore.useMutation({
    onSuccess: (result) => {
      setChosen([]);
      showNotice(result.message);
      void refresh();
    },
    onError: (error) => showNotice(refusalMessage(error, 'Could not restore'), 'error'),
  });
  const empty = trpc.history.emptyTrash.useMutation({
    onSuccess: (result) => {
      setEmptying(false);
      showNotice(result.message, 'success', { offerUndo: false });
      void refresh();
    },
    onError: (error) => showNotice(refusalMessage(error, 'Could not empty the trash'), 'error'),
  });
  const items = trash.data ?? [];
  const toggle = (id: number) => setChosen((now) => (now.includes(id) ? now.filter((x) => x !== id) : [...now, id]));
  return (
    <Paper>
      <Stack direction="row" spacing={1} sx={{ p: 2 }}>
        <Button
          variant="contained"
          disabled={chosen.length === 0 || restore.isPending}
          onClick={() => restore.mutate({ transactionIds: chosen })}
        >
          Restore {chosen.length > 0 ? chosen.length : ''} selected
        </Button>
        <Button color="error" disabled={items.length === 0} onClick={() => setEmptying(true)}>
          Empty trash
        </Button>
      </Stack>
      <ListStatus
        query={trash}
        empty={items.length === 0}
        loadingLabel="Loading the trash"
        errorText="Failed to fetch the trash"
        emptyText="The trash is empty. Deleted transactions wait here for 30 days before they are deleted for good."
      />
      <List aria-label="Trash">
        {items.map((item) => (
          <ListItem key={item.transactionId} divider>
            <ListItemIcon>
              <Checkbox
                edge="start"
                checked={chosen.includes(item.transactionId)}
                onChange={() => toggle(item.transactionId)}
                slotProps={{ input: { 'aria-label': `Select ${item.description} of ${item.postDate}` } }}
              />
            </ListItemIcon>
            <ListItemText
              primary={`${item.postDate} · ${item.description} · ${formatMoney(item.amount, { currency: currencyOf(item.account) })}`}
              secondary={`${item.account ?? 'No account'}${item.parts ? ` · split into ${item.parts} parts` : ''} · deleted ${new Date(item.deletedAt).toLocaleString()}`}
              sx={{ overflowWrap: 'break-word' }}
            />
          </ListItem>
        ))}
      </List>
      <Box>
        <ConfirmDialog
          open={emptying}
          title="Empty the trash?"
          message={`The ${items.length} transaction${items.length === 1 ? '' : 's'} in the trash will be deleted for good. This cannot be undone.`}
          confirmLabel="Empty trash"
          onConfirm={() => empty.mutate()}
          onCancel={() => setEmptying(false)}
        />
      </Box>
      <Notice notice={notice} onClose={clearNotice} />
    </Paper>
  );
}
