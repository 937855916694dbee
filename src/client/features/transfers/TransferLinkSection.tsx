import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { addDays, toDayNumber } from '../../../shared/dates/calendar';
import { formatMoney } from '../../../shared/money';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { refusalMessage, trpc } from '../../lib/trpc';
import { transferChipText } from '../../components/transactions/TransactionRow';

/** How far either side of a row's date the link picker looks for its other side. */
const LINK_WINDOW_DAYS = 30;

/**
 * Under a stored transaction's form: the transfer it is a side of, with Unlink; or, for an unlinked row of an
 * account, "Link as transfer…" offering the rows of other accounts with the opposite amount, nearest date first.
 */
export function TransferLinkSection(props: { tx: TransactionDto; onChanged: (tx: TransactionDto) => void }) {
  const { tx, onChanged } = props;
  const utils = trpc.useUtils();
  const unlink = trpc.transfers.unlink.useMutation();
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState('');
  if (tx.account === null || tx.isSplit || tx.parentTransactionId !== null) return null;
  const reload = async () => {
    await utils.transactions.invalidate();
    onChanged(await utils.transactions.get.fetch({ id: tx.id }));
  };
  const unlinkIt = async (transferId: number) => {
    setError('');
    try {
      await unlink.mutateAsync({ id: transferId });
      await reload();
    } catch (failure) {
      setError(refusalMessage(failure, 'Failed to unlink the transfer'));
    }
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="transfer-link" sx={{ p: 2, mt: 2 }}>
      <Typography id="transfer-link" component="h2" variant="h6" gutterBottom>
        Transfer
      </Typography>
      {error && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {error}
        </Alert>
      )}
      {tx.transferId !== null ? (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <Typography variant="body2">{transferChipText(tx)}</Typography>
          <Button variant="outlined" disabled={unlink.isPending} onClick={() => void unlinkIt(tx.transferId ?? 0)}>
            Unlink transfer
          </Button>
        </Stack>
      ) : picking ? (
        <LinkPicker tx={tx} onLinked={reload} onError={setError} onCancel={() => setPicking(false)} />
      ) : (
        <Button variant="outlined" onClick={() => setPicking(true)}>
          Link as transfer…
        </Button>
      )}
    </Paper>
  );
}

/** The rows that could be the other side, each a button that links it. */
function LinkPicker(props: {
  tx: TransactionDto;
  onLinked: () => Promise<void>;
  onError: (message: string) => void;
  onCancel: () => void;
}) {
  const { tx, onLinked, onError, onCancel } = props;
  const link = trpc.transfers.link.useMutation();
  const magnitude = Math.abs(tx.amount);
  const found = trpc.transactions.list.useQuery({
    startDate: addDays(tx.postDate, -LINK_WINDOW_DAYS),
    endDate: addDays(tx.postDate, LINK_WINDOW_DAYS),
    minAmount: magnitude,
    maxAmount: magnitude,
    direction: tx.amount < 0 ? 'in' : 'out',
    limit: 200,
  });
  const day = toDayNumber(tx.postDate);
  const candidates = (found.data ?? [])
    .filter((row) => row.account !== null && row.account !== tx.account && row.transferId === null && !row.isSplit)
    .filter((row) => row.currency === tx.currency)
    .sort((a, b) => Math.abs(toDayNumber(a.postDate) - day) - Math.abs(toDayNumber(b.postDate) - day));
  const linkWith = async (other: TransactionDto) => {
    try {
      await link.mutateAsync({ transactionIds: [tx.id, other.id] });
      await onLinked();
    } catch (failure) {
      onError(refusalMessage(failure, 'Failed to link the transfer'));
    }
  };
  return (
    <Box>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {found.isPending
          ? 'Looking for the other side…'
          : candidates.length === 0
            ? `No unlinked row of another account has the opposite amount within ${LINK_WINDOW_DAYS} days.`
            : 'Pick the other side of this transfer:'}
      </Typography>
      <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
        {candidates.map((row) => (
          <Button key={row.id} variant="text" disabled={link.isPending} onClick={() => void linkWith(row)}>
            {`${row.postDate} · ${row.account ?? ''} · ${row.description} · ${formatMoney(row.amount, { currency: row.currency })}`}
          </Button>
        ))}
        <Button onClick={onCancel}>Cancel</Button>
      </Stack>
    </Box>
  );
}
