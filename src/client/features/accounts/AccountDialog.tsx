import { Checkbox, FormControlLabel, MenuItem, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { isIsoDate, localIsoDate } from '../../../shared/dates/calendar';
import { formatAmountInput, minorUnitsOf } from '../../../shared/money';
import { ACCOUNT_TYPES, type AccountDto, type AccountType } from '../../../shared/schemas/accounts';
import { CurrencyField } from '../../components/CurrencyField';
import { FormDialog } from '../../components/FormDialog';
import { MoneyField } from '../../components/MoneyField';
import { readAmountField } from '../../lib/amountField';
import { useHomeCurrency } from '../../lib/currency';
import { browserLocale } from '../../lib/locale';
import { serverMessage, trpc } from '../../lib/trpc';
import { accountEdited } from '../../lib/transactionCache';

interface AccountDraft {
  name: string;
  type: AccountType | '';
  currency: string;
  openingBalance: string;
  openingDate: string;
  applySuggestions: boolean;
  /** Null until chosen: a new account follows its type (investments are off the plan). */
  onBudget: boolean | null;
}

type DraftErrors = Partial<Record<keyof AccountDraft, string>>;

interface AccountValues {
  name: string;
  type: AccountType;
  currency: string;
  openingBalance: number;
  openingDate: string;
  applySuggestions: boolean;
  onBudget?: boolean;
}

/** Reads the form: every problem named under its field; a blank opening balance is 0. */
export function readAccountForm(
  draft: AccountDraft,
  locale: string,
): { ok: true; value: AccountValues } | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const name = draft.name.trim();
  if (!name) errors.name = 'Name is required';
  if (!draft.type) errors.type = 'Type is required';
  const read = readAmountField(draft.openingBalance, locale, { currency: draft.currency });
  if (!read.ok) errors.openingBalance = read.message;
  if (!isIsoDate(draft.openingDate)) errors.openingDate = 'Enter the date of the opening balance';
  if (!read.ok || !draft.type || Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      name,
      type: draft.type,
      currency: draft.currency,
      openingBalance: read.cents ?? 0,
      openingDate: draft.openingDate,
      applySuggestions: draft.applySuggestions,
      ...(draft.onBudget === null ? {} : { onBudget: draft.onBudget }),
    },
  };
}

/** Whether the account counts in the plan, as the form shows it. */
const onPlan = (draft: AccountDraft): boolean => draft.onBudget ?? draft.type !== 'investment';

function draftOf(account: AccountDto | null, locale: string, home: string): AccountDraft {
  if (!account) {
    return {
      name: '',
      type: '',
      currency: home,
      openingBalance: '',
      openingDate: localIsoDate(new Date()),
      applySuggestions: true,
      onBudget: null,
    };
  }
  return {
    name: account.name,
    type: account.type,
    currency: account.currency,
    openingBalance: formatAmountInput(account.openingBalance, locale, minorUnitsOf(account.currency)),
    openingDate: account.openingDate,
    applySuggestions: account.applySuggestions,
    onBudget: account.onBudget,
  };
}

interface AccountDialogProps {
  /** The account being edited, or null for a new one. */
  account: AccountDto | null;
  onClose: () => void;
  onSaved: (account: AccountDto, created: boolean) => void;
}

/** Create or edit an account: name, type, currency, its opening balance and the date of it, and whether it is on the plan. */
export function AccountDialog({ account, onClose, onSaved }: AccountDialogProps) {
  const locale = browserLocale();
  const home = useHomeCurrency();
  const [draft, setDraft] = useState<AccountDraft>(() => draftOf(account, locale, home));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [error, setError] = useState('');
  const utils = trpc.useUtils();
  const create = trpc.accounts.create.useMutation();
  const update = trpc.accounts.update.useMutation();
  const set = (change: Partial<AccountDraft>) => setDraft((d) => ({ ...d, ...change }));

  async function save() {
    setError('');
    const read = readAccountForm(draft, locale);
    setErrors(read.ok ? {} : read.errors);
    if (!read.ok) return;
    try {
      const saved = account
        ? await update.mutateAsync({ id: account.id, data: read.value })
        : await create.mutateAsync(read.value);
      await Promise.all([utils.accounts.list.invalidate(), utils.accounts.netWorth.invalidate()]);
      if (account) void accountEdited(utils);
      onSaved(saved, !account);
    } catch (failure) {
      setError(serverMessage(failure, account ? 'Failed to update the account' : 'Failed to create the account'));
    }
  }

  return (
    <FormDialog
      title={account ? `Edit account '${account.name}'` : 'New account'}
      error={error}
      mutation={[create, update]}
      onSubmit={save}
      onClose={onClose}
      submitLabel={account ? 'Save account' : 'Create account'}
    >
      <AccountFields draft={draft} errors={errors} set={set} editing={account !== null} />
    </FormDialog>
  );
}

function AccountFields({
  draft,
  errors,
  set,
  editing,
}: {
  draft: AccountDraft;
  errors: DraftErrors;
  set: (change: Partial<AccountDraft>) => void;
  editing: boolean;
}) {
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <TextField
        label="Name"
        required
        value={draft.name}
        onChange={(e) => set({ name: e.target.value })}
        error={Boolean(errors.name)}
        helperText={errors.name}
        autoComplete="off"
      />
      <TextField
        select
        label="Type"
        required
        value={draft.type}
        onChange={(e) => set({ type: e.target.value as AccountType })}
        error={Boolean(errors.type)}
        helperText={errors.type}
      >
        {ACCOUNT_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {type}
          </MenuItem>
        ))}
      </TextField>
      <CurrencyField
        label="Currency"
        required
        value={draft.currency}
        onChange={(currency) => set({ currency })}
        helperText={
          editing
            ? 'Changes only while the account has no transactions: its amounts are stored in this currency'
            : 'Every amount of the account is in this currency'
        }
      />
      <OpeningFields draft={draft} errors={errors} set={set} />
      <FormControlLabel
        control={
          <Checkbox checked={draft.applySuggestions} onChange={(e) => set({ applySuggestions: e.target.checked })} />
        }
        label="Apply confident suggestions on import"
      />
      <FormControlLabel
        control={<Checkbox checked={onPlan(draft)} onChange={(e) => set({ onBudget: e.target.checked })} />}
        label="On the plan: its money counts in the monthly plan"
      />
    </Stack>
  );
}

/** The opening balance (in the account's currency) and the date it was held on. */
function OpeningFields({
  draft,
  errors,
  set,
}: {
  draft: AccountDraft;
  errors: DraftErrors;
  set: (change: Partial<AccountDraft>) => void;
}) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <MoneyField
        label="Opening balance"
        value={draft.openingBalance}
        currency={draft.currency}
        placeholder={formatAmountInput(0, browserLocale(), minorUnitsOf(draft.currency))}
        onChange={(openingBalance) => set({ openingBalance })}
        error={errors.openingBalance}
        helperText="What the account held on the opening date, before its transactions"
        sx={{ flexGrow: 1 }}
      />
      <TextField
        label="Opening date"
        type="date"
        required
        value={draft.openingDate}
        onChange={(e) => set({ openingDate: e.target.value })}
        error={Boolean(errors.openingDate)}
        helperText={errors.openingDate ?? ' '}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </Stack>
  );
}
