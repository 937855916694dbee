import {
  Alert,
  Autocomplete,
  Box,
  Button,
  LinearProgress,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useState, type Dispatch, type SetStateAction, type SubmitEvent } from 'react';
import { formatAmountInput } from '../../../shared/money';
import { TRANSACTION_TYPES, type TransactionDto, type TransactionType } from '../../../shared/schemas/transactions';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { MoneyField } from '../../components/MoneyField';
import { fieldDigits } from '../../lib/amountField';
import { useHomeCurrency } from '../../lib/currency';
import { Notice, useNotice } from '../../components/Notice';
import { sharedLoadError, useAccountNames, useCategoryNames } from '../../components/transactions/hooks';
import { browserLocale } from '../../lib/locale';
import { TransferLinkSection } from '../transfers/TransferLinkSection';
import { omitWhere } from '../../lib/objects';
import { refusalMessage, serverFieldErrors, trpc } from '../../lib/trpc';
import {
  amountLocked,
  amountLockedText,
  DRAFT_FIELDS,
  draftOf,
  readDraft,
  signChange,
  signChangeQuestion,
  type DraftErrors,
  type ReadDraft,
  type TransactionDraft,
} from './transactionForm';

const editRoute = getRouteApi('/_auth/transactions/$id/edit');

/** Create Transaction (/create-transaction): date, description, amount, category, account, type and Save. */
export function EditTransactionScreen() {
  return <TransactionForm key="new" initial={null} />;
}

/**
 * Edit Transaction (/transactions/$id/edit): the same form on a stored transaction, read by its id, so the page
 * has its own address (a reload or a shared link opens it again).
 */
export function EditStoredTransactionScreen() {
  const id = editRoute.useParams({ select: (params) => params.id });
  const valid = Number.isSafeInteger(id) && id > 0;
  const stored = trpc.transactions.get.useQuery({ id }, { enabled: valid, retry: false });
  if (!valid || stored.isError) {
    return (
      <Box sx={{ maxWidth: 640 }}>
        <Typography variant="h1" gutterBottom>
          Transaction not found
        </Typography>
        {valid && <Alert severity="error">{refusalMessage(stored.error, 'Failed to load the transaction')}</Alert>}
      </Box>
    );
  }
  if (!stored.data) return <LinearProgress aria-label="Loading the transaction" />;
  // Another transaction (a new id) starts a fresh form.
  return <TransactionForm key={stored.data.id} initial={stored.data} />;
}

/** What Save sends for the form: a new transaction, or the fields of a stored one that changed. */
function useSaveTransaction(editing: TransactionDto | null, draft: TransactionDraft, locked: boolean) {
  const utils = trpc.useUtils();
  const create = trpc.transactions.create.useMutation();
  const update = trpc.transactions.update.useMutation();
  async function save(value: ReadDraft): Promise<TransactionDto> {
    const type = draft.type ? { type: draft.type } : {};
    let saved: TransactionDto;
    if (editing) {
      const account = draft.account !== (editing.account ?? '') ? { account: draft.account || null } : {};
      const data = { ...value, ...account, ...(locked ? { amount: undefined } : {}) };
      saved = await update.mutateAsync({
        id: editing.id,
        data: draft.type !== editing.type ? { ...data, ...type } : data,
      });
      void utils.transactions.get.invalidate({ id: editing.id });
    } else {
      saved = await create.mutateAsync({ ...value, ...type, ...(draft.account ? { account: draft.account } : {}) });
    }
    if (value.category) void utils.categories.list.invalidate();
    void utils.transactions.list.invalidate();
    return saved;
  }
  return { save, saving: create.isPending || update.isPending };
}

interface SubmitTransactionOptions {
  editing: TransactionDto | null;
  setEditing: (saved: TransactionDto) => void;
  draft: TransactionDraft;
  setDraft: Dispatch<SetStateAction<TransactionDraft>>;
  setErrors: (errors: DraftErrors) => void;
  /** The amount cannot change (a split member): the stored one is read and saved. */
  locked: boolean;
  locale: string;
  /** The chosen account's currency (the home currency without one): amounts are read and shown in its decimals. */
  currency: string;
  showNotice: ReturnType<typeof useNotice>[1];
}

/**
 * Submitting the form: the draft is read (its errors shown by field), a stored amount whose sign would change is
 * asked about first (`question`), then the transaction is saved and the outcome shown as a notice.
 */
function useSubmitTransaction(options: SubmitTransactionOptions) {
  const { editing, setEditing, draft, setDraft, setErrors, locked, locale, currency, showNotice } = options;
  const field = (cents: number) => formatAmountInput(cents, locale, fieldDigits(currency));
  const [question, setQuestion] = useState<{ text: string; value: ReadDraft } | null>(null);
  const { save: send, saving } = useSaveTransaction(editing, draft, locked);

  function submit(event: SubmitEvent) {
    event.preventDefault();
    const read = readDraft(locked && editing ? { ...draft, amount: field(editing.amount) } : draft, locale, currency);
    setErrors(read.ok ? {} : read.errors);
    if (!read.ok) return;
    const change = editing ? signChange(editing.amount, read.value.amount) : null;
    if (editing && change) {
      const text = signChangeQuestion(
        change,
        field(editing.amount),
        field(read.value.amount),
        draft.type || editing.type,
      );
      setQuestion({ text, value: read.value });
      return;
    }
    void save(read.value);
  }

  async function save(value: ReadDraft) {
    setQuestion(null);
    try {
      const saved = await send(value);
      if (editing) {
        setEditing(saved);
        setDraft((current) => ({ ...current, amount: field(saved.amount), type: saved.type }));
        showNotice('Transaction updated successfully');
      } else {
        setDraft((current) => ({ ...current, description: '', amount: '', category: '' }));
        showNotice('Transaction created successfully');
      }
    } catch (failure) {
      console.error('Saving the transaction failed', failure);
      const byField = serverFieldErrors(failure, DRAFT_FIELDS);
      setErrors(byField.fields);
      const fallback = editing ? 'Failed to update transaction' : 'Failed to create transaction';
      const message =
        byField.rest || Object.keys(byField.fields).length === 0 ? refusalMessage(failure, fallback) : fallback;
      showNotice(message, 'error');
    }
  }

  return { submit, save, saving, question, setQuestion };
}

function TransactionForm({ initial }: { initial: TransactionDto | null }) {
  const router = useRouter();
  const locale = browserLocale();
  const [editing, setEditing] = useState<TransactionDto | null>(initial);
  const { draft, setDraft, errors, setErrors, set } = useDraft(initial, locale);
  const [notice, showNotice, clearNotice] = useNotice();
  const categories = useCategoryNames();
  const accounts = useAccountNames();
  const loadError = sharedLoadError(categories.error, accounts.error);
  const locked = amountLocked(editing);
  const home = useHomeCurrency();
  const currency = accounts.currencyOf(draft.account) ?? editing?.currency ?? home;
  const { submit, save, saving, question, setQuestion } = useSubmitTransaction({
    editing,
    setEditing,
    draft,
    setDraft,
    setErrors,
    locked,
    locale,
    currency,
    showNotice,
  });

  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h1" gutterBottom>
        {editing ? 'Edit Transaction' : 'Create Transaction'}
      </Typography>
      <Paper component="form" onSubmit={submit} sx={{ p: { xs: 2, sm: 3 } }} noValidate>
        <Stack spacing={2.5}>
          <DateAndDescription draft={draft} errors={errors} onChange={set} />
          <AmountField
            value={locked && editing ? formatAmountInput(editing.amount, locale, fieldDigits(currency)) : draft.amount}
            currency={currency}
            lockedText={locked && editing ? amountLockedText(editing) : null}
            error={errors.amount}
            onChange={(amount) => set({ amount })}
          />
          <CategoryField
            value={draft.category}
            options={categories.names}
            error={errors.category}
            onChange={(category) => set({ category })}
          />
          <AccountField value={draft.account} names={accounts.names} onChange={(account) => set({ account })} />
          <TypeField value={draft.type} creating={!editing} onChange={(type) => set({ type })} />
          {loadError && <Alert severity="warning">{loadError}</Alert>}
          <FormActions saving={saving} onBack={initial ? () => router.history.back() : null} />
        </Stack>
      </Paper>
      {initial && editing && <TransferLinkSection tx={editing} onChanged={setEditing} />}
      <ConfirmDialog
        open={question !== null}
        title="Change the sign?"
        message={question?.text ?? ''}
        confirmLabel="Save"
        cancelLabel="Cancel"
        busy={saving}
        onConfirm={() => question && void save(question.value)}
        onCancel={() => setQuestion(null)}
      />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}

function CategoryField({
  value,
  options,
  error,
  onChange,
}: {
  value: string;
  options: string[];
  error?: string;
  onChange: (category: string) => void;
}) {
  return (
    <Autocomplete
      freeSolo
      options={options}
      inputValue={value}
      onInputChange={(_e, category) => onChange(category)}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Category"
          error={Boolean(error)}
          helperText={error ?? 'Leave empty for no category'}
        />
      )}
    />
  );
}

/** The type (a split family shares it); a new transaction may leave it to its sign. */
function TypeField({
  value,
  creating,
  onChange,
}: {
  value: TransactionType | '';
  creating: boolean;
  onChange: (type: TransactionType | '') => void;
}) {
  return (
    <TextField select label="Type" value={value} onChange={(e) => onChange(e.target.value as TransactionType | '')}>
      {creating && <MenuItem value="">From the amount&apos;s sign</MenuItem>}
      {TRANSACTION_TYPES.map((type) => (
        <MenuItem key={type} value={type}>
          {type}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The account, if any ("No account" detaches a stored transaction from its account). */
function AccountField({
  value,
  names,
  onChange,
}: {
  value: string;
  names: string[];
  onChange: (account: string) => void;
}) {
  return (
    <TextField select label="Account" value={value} onChange={(e) => onChange(e.target.value)}>
      <MenuItem value="">
        <em>No account</em>
      </MenuItem>
      {names.map((name) => (
        <MenuItem key={name} value={name}>
          {name}
        </MenuItem>
      ))}
    </TextField>
  );
}

function DateAndDescription({
  draft,
  errors,
  onChange,
}: {
  draft: TransactionDraft;
  errors: DraftErrors;
  onChange: (patch: Partial<TransactionDraft>) => void;
}) {
  return (
    <>
      <TextField
        label="Date"
        type="date"
        required
        value={draft.postDate}
        onChange={(e) => onChange({ postDate: e.target.value })}
        error={Boolean(errors.postDate)}
        helperText={errors.postDate}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        label="Description"
        required
        value={draft.description}
        onChange={(e) => onChange({ description: e.target.value })}
        error={Boolean(errors.description)}
        helperText={errors.description}
      />
    </>
  );
}

/** The amount; disabled, saying why, when it cannot change (a split member). */
function AmountField({
  value,
  lockedText,
  error,
  onChange,
  currency,
}: {
  value: string;
  currency: string;
  lockedText: string | null;
  error?: string;
  onChange: (amount: string) => void;
}) {
  return (
    <MoneyField
      label="Amount"
      required
      value={value}
      onChange={onChange}
      currency={currency}
      disabled={lockedText !== null}
      // The reason must stay readable while the field is disabled.
      slotProps={{ formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } } }}
      error={error}
      helperText={lockedText ?? 'Negative for money out, e.g. -12.50'}
    />
  );
}

/** Save, and Back to the list the transaction was opened from (when it was). */
function FormActions({ saving, onBack }: { saving: boolean; onBack: (() => void) | null }) {
  return (
    <Stack direction="row" spacing={1}>
      <Button type="submit" variant="contained" disabled={saving}>
        {saving ? 'Saving...' : 'Save'}
      </Button>
      {onBack && (
        <Button onClick={onBack} disabled={saving}>
          Back
        </Button>
      )}
    </Stack>
  );
}

/** The form as typed, its errors, and `set`, which changes fields and clears their errors. */
function useDraft(initial: TransactionDto | null, locale: string) {
  const [draft, setDraft] = useState<TransactionDraft>(() => draftOf(initial, locale));
  const [errors, setErrors] = useState<DraftErrors>({});
  const set = (patch: Partial<TransactionDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setErrors((current) => omitWhere(current, (key) => key in patch));
  };
  return { draft, setDraft, errors, setErrors, set };
}
