import { Alert, Badge, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { formatMoney } from '../../../shared/money';
import type { TransferCandidateDto } from '../../../shared/schemas/transfers';
import { useTransactionCache } from '../../lib/transactionCache';
import { serverMessage, trpc } from '../../lib/trpc';
import { TransferDialog } from './TransferDialog';

/**
 * Transfers on the Transactions screen: the pairs import offered ("Transfers to confirm", with their count) to
 * accept or dismiss, and the "New transfer" dialog while `creating`. The panel shows only while pairs wait or
 * it has something to say, so an empty one takes no room above the rows.
 */
export function TransfersPanel({ creating, onCreatingEnd }: { creating: boolean; onCreatingEnd: () => void }) {
  const candidates = trpc.transfers.candidates.useQuery();
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const cache = useTransactionCache();
  const utils = trpc.useUtils();
  const rows = candidates.data?.rows ?? [];
  const total = candidates.data?.total ?? 0;
  const changed = async (text: string) => {
    setNotice({ text, error: false });
    await Promise.all([utils.transfers.candidates.invalidate(), cache.refetch()]);
  };
  const dialog = creating && (
    <TransferDialog
      onClose={onCreatingEnd}
      onSaved={(text) => {
        onCreatingEnd();
        void changed(text);
      }}
    />
  );
  if (total === 0 && !notice) return dialog;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="transfers-to-confirm" sx={{ p: 2, mb: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Badge badgeContent={total} color="primary" max={999} aria-hidden="true">
          <Typography id="transfers-to-confirm" component="h2" variant="h6">
            Transfers to confirm
          </Typography>
        </Badge>
        <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
          {total === 0 ? 'None waiting' : `${total} waiting`}
        </Typography>
      </Stack>
      {notice && (
        <Alert severity={notice.error ? 'error' : 'success'} sx={{ mt: 1 }} onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      )}
      {rows.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1 }}>
          {rows.map((candidate) => (
            <CandidateItem
              key={candidate.id}
              candidate={candidate}
              onDone={(text) => void changed(text)}
              onFail={(text) => setNotice({ text, error: true })}
            />
          ))}
        </Box>
      )}
      {dialog}
    </Paper>
  );
}

function CandidateItem(props: {
  candidate: TransferCandidateDto;
  onDone: (message: string) => void;
  onFail: (message: string) => void;
}) {
  const { candidate, onDone, onFail } = props;
  const accept = trpc.transfers.accept.useMutation();
  const dismiss = trpc.transfers.dismiss.useMutation();
  const { from, to } = candidate;
  // Across currencies both amounts are named: what left, and what arrived.
  const across = from.currency !== to.currency;
  const moved = across
    ? formatMoney(-from.amount, { currency: from.currency })
    : formatMoney(to.amount, { currency: to.currency });
  const arrived = across ? ` as ${formatMoney(to.amount, { currency: to.currency })}` : '';
  const label = `${moved} from ${from.account ?? ''} on ${from.postDate} to ${to.account ?? ''} on ${to.postDate}${arrived}`;
  const run = async (action: 'accept' | 'dismiss') => {
    try {
      if (action === 'accept') await accept.mutateAsync({ id: candidate.id });
      else await dismiss.mutateAsync({ id: candidate.id });
      onDone(action === 'accept' ? `Linked: ${label}` : `Dismissed: ${label}`);
    } catch (failure) {
      onFail(serverMessage(failure, 'Failed to change the transfer'));
    }
  };
  const busy = accept.isPending || dismiss.isPending;
  return (
    <Box component="li" sx={{ py: 1, borderTop: 1, borderColor: 'divider' }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="body2">
            <strong>{label}</strong>
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {from.description} / {to.description}: {candidate.reason} (score {candidate.score})
          </Typography>
        </Box>
        <Stack direction="row" spacing={1}>
          <Button
            size="small"
            variant="contained"
            disabled={busy}
            onClick={() => void run('accept')}
            aria-label={`Accept transfer: ${label}`}
          >
            Accept
          </Button>
          <Button
            size="small"
            disabled={busy}
            onClick={() => void run('dismiss')}
            aria-label={`Dismiss transfer: ${label}`}
          >
            Dismiss
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
