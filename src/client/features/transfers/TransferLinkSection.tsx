import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { addDays, toDayNumber } from '../../../shared/dates/calendar';
import { formatMoney, minorUnitsOf } from '../../../shared/money';
import { impliedRate, rateText, TRANSFER_RATE_TOLERANCE } from '../../../shared/rates/transfer-rate';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { refusalMessage, trpc } from '../../lib/trpc';
import { transferChipText } from '../../components/transactions/TransactionRow';

/** How far either side of a row's date the link picker looks for its other side. */
const LINK_WINDOW_DAYS = 30;

/**
 * Under a stored transaction's form: the transfer it is a side of, with Unlink; or, for an unlinked row of an
 * account, "Link as transfer…" offering the rows of other accounts with the opposite amount, and those of accounts
 * in other currencies near it at the day's rate (with the rate the two amounts imply), nearest date first.
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
  const across = useOtherCurrencySides(tx);
  const day = toDayNumber(tx.postDate);
  const candidates = [
    ...(found.data ?? [])
      .filter((row) => row.currency === tx.currency && couldBeOtherSide(tx, row))
      .map((row) => ({ row, rate: null })),
    ...across,
  ].sort((a, b) => Math.abs(toDayNumber(a.row.postDate) - day) - Math.abs(toDayNumber(b.row.postDate) - day));
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
        {candidates.map(({ row, rate }) => (
          <Button key={row.id} variant="text" disabled={link.isPending} onClick={() => void linkWith(row)}>
            {`${row.postDate} · ${row.account ?? ''} · ${row.description} · ${formatMoney(row.amount, { currency: row.currency })}${rate ? ` · ${rate}` : ''}`}
          </Button>
        ))}
        <Button onClick={onCancel}>Cancel</Button>
      </Stack>
    </Box>
  );
}

/** A row of another account, not linked and not split: what a transfer's other side may be. */
function couldBeOtherSide(tx: TransactionDto, row: TransactionDto): boolean {
  return row.account !== null && row.account !== tx.account && row.transferId === null && !row.isSplit;
}

/**
 * The rows of accounts in other currencies that could be the other side: within the window, money moving the other
 * way, and an amount within a little more than the link's tolerance of this one at this day's rate (the link itself
 * checks the out side's day's rate), each with the rate the two amounts imply ("1 EUR = 0.852 GBP").
 */
function useOtherCurrencySides(tx: TransactionDto): { row: TransactionDto; rate: string }[] {
  const currency = tx.currency ?? '';
  const accounts = trpc.accounts.list.useQuery();
  const quotes = [...new Set((accounts.data ?? []).map((a) => a.currency).filter((code) => code !== currency))];
  const rates = trpc.useQueries((t) =>
    quotes.map((quote) => t.rates.lookup({ base: currency, quote, date: tx.postDate }, { retry: false })),
  );
  const bands = quotes.flatMap((quote, i) => {
    const rate = rates[i]?.data?.rate;
    if (!rate) return [];
    const expected = Math.abs(tx.amount) * Number(rate) * 10 ** (minorUnitsOf(quote) - minorUnitsOf(currency));
    const slack = 2 * TRANSFER_RATE_TOLERANCE;
    return [{ quote, min: Math.floor(expected * (1 - slack)), max: Math.ceil(expected * (1 + slack)) }];
  });
  const found = trpc.useQueries((t) =>
    bands.map((band) =>
      t.transactions.list({
        startDate: addDays(tx.postDate, -LINK_WINDOW_DAYS),
        endDate: addDays(tx.postDate, LINK_WINDOW_DAYS),
        minAmount: band.min,
        maxAmount: band.max,
        direction: tx.amount < 0 ? 'in' : 'out',
        limit: 200,
      }),
    ),
  );
  return bands.flatMap((band, i) =>
    (found[i]?.data ?? [])
      .filter((row) => row.currency === band.quote && couldBeOtherSide(tx, row))
      .map((row) => {
        const [out, arrived] = tx.amount < 0 ? [tx, row] : [row, tx];
        const implied = impliedRate(out.amount, out.currency ?? '', arrived.amount, arrived.currency ?? '');
        return { row, rate: `1 ${out.currency ?? ''} = ${rateText(implied)} ${arrived.currency ?? ''}` };
      }),
  );
}
