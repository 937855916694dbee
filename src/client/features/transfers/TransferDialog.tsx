import { MenuItem, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { isIsoDate, localIsoDate } from '../../../shared/dates/calendar';
import type { CreateTransferInput } from '../../../shared/schemas/transfers';
import { FormDialog } from '../../components/FormDialog';
import { MoneyField } from '../../components/MoneyField';
import { readAmountField } from '../../lib/amountField';
import { browserLocale } from '../../lib/locale';
import { serverMessage, trpc } from '../../lib/trpc';

interface TransferDraft {
  fromAccount: string;
  toAccount: string;
  amount: string;
  /** What arrives, when the accounts' currencies differ (blank: the day's rate decides). */
  toAmount: string;
  date: string;
  toDate: string;
  description: string;
}
type DraftErrors = Partial<Record<keyof TransferDraft, string>>;

/** Reads the form: every problem named under its field; a blank arrival date is the same day. */
export function readTransferForm(
  draft: TransferDraft,
  locale: string,
  currencies: { from: string | null; to: string | null } = { from: null, to: null },
): { ok: true; value: CreateTransferInput } | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {};
  if (!draft.fromAccount) errors.fromAccount = 'Choose the account the money leaves';
  if (!draft.toAccount) errors.toAccount = 'Choose the account the money reaches';
  else if (draft.toAccount === draft.fromAccount) errors.toAccount = 'Choose another account than the one it leaves';
  const read = readAmountField(draft.amount, locale, { currency: currencies.from });
  if (!read.ok) errors.amount = read.message;
  else if (read.cents === null || read.cents <= 0) errors.amount = 'Enter the amount moved, more than 0';
  const across = currencies.from !== currencies.to;
  const arriving = across ? readAmountField(draft.toAmount, locale, { currency: currencies.to, unsigned: true }) : null;
  if (arriving && !arriving.ok) errors.toAmount = arriving.message;
  if (!isIsoDate(draft.date)) errors.date = 'Enter the date it leaves';
  if (draft.toDate && !isIsoDate(draft.toDate)) errors.toDate = 'Enter the date it arrives, or leave it empty';
  if (!read.ok || read.cents === null || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      fromAccount: draft.fromAccount,
      toAccount: draft.toAccount,
      amount: read.cents,
      ...(arriving?.ok && arriving.cents ? { toAmount: arriving.cents } : {}),
      date: draft.date,
      ...(draft.toDate ? { toDate: draft.toDate } : {}),
      ...(draft.description.trim() ? { description: draft.description.trim() } : {}),
    },
  };
}

/** "New transfer": both sides at once, each with its own date. */
export function TransferDialog({ onClose, onSaved }: { onClose: () => void; onSaved: (message: string) => void }) {
  const locale = browserLocale();
  const accounts = trpc.accounts.list.useQuery();
  const create = trpc.transfers.create.useMutation();
  const [draft, setDraft] = useState<TransferDraft>(() => ({
    fromAccount: '',
    toAccount: '',
    amount: '',
    toAmount: '',
    date: localIsoDate(new Date()),
    toDate: '',
    description: '',
  }));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [error, setError] = useState('');
  const set = (change: Partial<TransferDraft>) => setDraft((d) => ({ ...d, ...change }));
  const names = (accounts.data ?? []).map((a) => a.name);
  // The amount is in the currency of the account the money leaves; what arrives, in the other's.
  const currencyOf = (name: string) => accounts.data?.find((a) => a.name === name)?.currency ?? null;
  const currencies = { from: currencyOf(draft.fromAccount), to: currencyOf(draft.toAccount) };

  async function save() {
    setError('');
    const read = readTransferForm(draft, locale, currencies);
    setErrors(read.ok ? {} : read.errors);
    if (!read.ok) return;
    try {
      const made = await create.mutateAsync(read.value);
      onSaved(
        `Transfer saved: ${made.from.account ?? ''} to ${made.to.account ?? ''}${made.rate ? ` at 1 ${made.from.currency ?? ''} = ${made.rate} ${made.to.currency ?? ''}` : ''}`,
      );
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to save the transfer'));
    }
  }

  return (
    <FormDialog
      title="New transfer"
      error={error}
      mutation={create}
      onSubmit={save}
      onClose={onClose}
      submitLabel="Save transfer"
    >
      <TransferFields draft={draft} errors={errors} set={set} names={names} currencies={currencies} />
    </FormDialog>
  );
}

function AccountSelect(props: {
  label: string;
  value: string;
  error?: string;
  names: string[];
  onChange: (v: string) => void;
}) {
  return (
    <TextField
      select
      required
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      error={Boolean(props.error)}
      helperText={props.error}
      sx={{ flexGrow: 1 }}
    >
      {props.names.map((name) => (
        <MenuItem key={name} value={name}>
          {name}
        </MenuItem>
      ))}
    </TextField>
  );
}

function TransferFields(props: {
  draft: TransferDraft;
  currencies: { from: string | null; to: string | null };
  errors: DraftErrors;
  names: string[];
  set: (change: Partial<TransferDraft>) => void;
}) {
  const { draft, errors, names, set, currencies } = props;
  const date = (key: 'date' | 'toDate', label: string, required: boolean) => (
    <TextField
      label={label}
      type="date"
      required={required}
      value={draft[key]}
      onChange={(e) => set({ [key]: e.target.value })}
      error={Boolean(errors[key])}
      helperText={errors[key] ?? (key === 'toDate' ? 'Leave empty when it arrives the same day' : ' ')}
      slotProps={{ inputLabel: { shrink: true } }}
      sx={{ flexGrow: 1 }}
    />
  );
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <AccountSelect
          label="From account"
          value={draft.fromAccount}
          error={errors.fromAccount}
          names={names}
          onChange={(fromAccount) => set({ fromAccount })}
        />
        <AccountSelect
          label="To account"
          value={draft.toAccount}
          error={errors.toAccount}
          names={names}
          onChange={(toAccount) => set({ toAccount })}
        />
      </Stack>
      <MoneyField
        label="Amount"
        required
        unsigned
        value={draft.amount}
        currency={currencies.from}
        onChange={(amount) => set({ amount })}
        error={errors.amount}
      />
      {currencies.from && currencies.to && currencies.from !== currencies.to && (
        <MoneyField
          label={`Amount arriving in ${currencies.to}`}
          unsigned
          value={draft.toAmount}
          currency={currencies.to}
          onChange={(toAmount) => set({ toAmount })}
          error={errors.toAmount}
          helperText="Blank: converted at the day's rate; else within 5% of it"
        />
      )}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {date('date', 'Date it leaves', true)}
        {date('toDate', 'Date it arrives', false)}
      </Stack>
      <TextField
        label="Description"
        value={draft.description}
        onChange={(e) => set({ description: e.target.value })}
        helperText="Optional: 'Transfer to …' and 'Transfer from …' otherwise"
        autoComplete="off"
      />
    </Stack>
  );
}
