import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  CircularProgress,
  FormControlLabel,
  List,
  ListItem,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type SubmitEvent } from 'react';
import { formatAmountInput, formatMoney } from '../../../shared/money';
import { ACCOUNT_TYPES, type AccountDto, type AccountType } from '../../../shared/schemas/accounts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { MoneyField } from '../../components/MoneyField';
import { ButtonLink } from '../../components/RouterLinks';
import type { NoticeMessage } from '../../components/Notice';
import { readAmountField } from '../../lib/amountField';
import { browserLocale } from '../../lib/locale';
import { serverMessage, trpc } from '../../lib/trpc';
import { accountEdited } from '../../lib/transactionCache';

interface AccountDraft {
  name: string;
  type: AccountType | '';
  balance: string;
  /** "Apply confident suggestions" on import (on by default). */
  applySuggestions: boolean;
}

const EMPTY_DRAFT: AccountDraft = { name: '', type: '', balance: '', applySuggestions: true };

type DraftErrors = Partial<Record<keyof AccountDraft, string>>;

/** Validates the account form; balance defaults to 0 when empty. */
export function readAccountDraft(
  draft: AccountDraft,
  locale = 'en-US',
):
  | { ok: true; value: { name: string; type: AccountType; balance: number; applySuggestions: boolean } }
  | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const name = draft.name.trim();
  if (!name) errors.name = 'Name is required';
  if (!draft.type) errors.type = 'Type is required';
  const read = readAmountField(draft.balance, locale);
  const balance = read.ok ? (read.cents ?? 0) : null;
  if (!read.ok) errors.balance = read.message;
  if (Object.keys(errors).length > 0 || balance === null || !draft.type) return { ok: false, errors };
  return { ok: true, value: { name, type: draft.type, balance, applySuggestions: draft.applySuggestions } };
}

interface AccountsWidgetProps {
  accounts: readonly AccountDto[];
  loading: boolean;
  failed: boolean;
  showNotice: (text: string, severity?: NoticeMessage['severity']) => void;
}

/** The account being added or edited, its draft and errors, and the save and delete calls. */
function useAccountEditor(showNotice: AccountsWidgetProps['showNotice']) {
  const utils = trpc.useUtils();
  const create = trpc.accounts.create.useMutation();
  const update = trpc.accounts.update.useMutation();
  const remove = trpc.accounts.delete.useMutation();
  /** null: form closed; 'new': adding; a number: editing that account. */
  const [editing, setEditing] = useState<'new' | number | null>(null);
  const [draft, setDraft] = useState<AccountDraft>(EMPTY_DRAFT);
  const [errors, setErrors] = useState<DraftErrors>({});
  const [formError, setFormError] = useState('');
  const [deleting, setDeleting] = useState<AccountDto | null>(null);

  function open(target: 'new' | AccountDto | null) {
    setErrors({});
    setFormError('');
    if (target === null) {
      setEditing(null);
    } else if (target === 'new') {
      setEditing('new');
      setDraft(EMPTY_DRAFT);
    } else {
      setEditing(target.id);
      setDraft({
        name: target.name,
        type: target.type,
        balance: formatAmountInput(target.balance, browserLocale()),
        applySuggestions: target.applySuggestions,
      });
    }
  }

  async function save(event: SubmitEvent) {
    event.preventDefault();
    const read = readAccountDraft(draft, browserLocale());
    if (!read.ok) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    setFormError('');
    const isNew = editing === 'new';
    try {
      if (isNew) await create.mutateAsync(read.value);
      else await update.mutateAsync({ id: editing, data: read.value }).then(() => void accountEdited(utils));
      await utils.accounts.list.invalidate();
      setEditing(null);
      showNotice(isNew ? 'Account created successfully' : 'Account updated successfully');
    } catch (error) {
      const fallback = isNew ? 'Failed to create account' : 'Failed to update account';
      const detail = serverMessage(error, '');
      setFormError(detail ? `${fallback}: ${detail}` : fallback);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync({ id: deleting.id });
      await utils.accounts.list.invalidate();
      if (editing === deleting.id) setEditing(null);
      showNotice('Account deleted successfully');
    } catch (error) {
      const detail = serverMessage(error, '');
      showNotice(detail ? `Failed to delete account: ${detail}` : 'Failed to delete account', 'error');
    } finally {
      setDeleting(null);
    }
  }

  const saving = create.isPending || update.isPending;
  return {
    editing,
    draft,
    setDraft,
    errors,
    formError,
    deleting,
    setDeleting,
    deletePending: remove.isPending,
    saving,
    open,
    save,
    confirmDelete,
  };
}

type AccountEditor = ReturnType<typeof useAccountEditor>;

/** The add/edit form, under the heading (adding) or under the account being edited. */
function AccountForm({ editor }: { editor: AccountEditor }) {
  const { editing, draft, setDraft, errors, formError, saving } = editor;
  return (
    <Box
      component="form"
      onSubmit={(event) => void editor.save(event)}
      noValidate
      aria-label={editing === 'new' ? 'Add account' : 'Edit account'}
      sx={{ mt: 2 }}
    >
      <Stack spacing={2}>
        <TextField
          label="Name"
          required
          size="small"
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          error={Boolean(errors.name)}
          helperText={errors.name}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- the account form opens to type its name
          autoFocus
        />
        <TextField
          select
          label="Type"
          required
          size="small"
          value={draft.type}
          onChange={(e) => setDraft({ ...draft, type: e.target.value as AccountType })}
          error={Boolean(errors.type)}
          helperText={errors.type}
        >
          {ACCOUNT_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {type}
            </MenuItem>
          ))}
        </TextField>
        <MoneyField
          label="Balance"
          size="small"
          value={draft.balance}
          placeholder="0.00"
          onChange={(balance) => setDraft((current) => ({ ...current, balance }))}
          error={errors.balance}
        />
        <FormControlLabel
          control={
            <Checkbox
              size="small"
              checked={draft.applySuggestions}
              onChange={(e) => setDraft((current) => ({ ...current, applySuggestions: e.target.checked }))}
            />
          }
          label="Apply confident suggestions"
          title="On import, categories learned from your history with confidence of 90% or more are set (marked Suggested, for review)"
        />
        {formError && (
          <Alert severity="error" role="alert">
            {formError}
          </Alert>
        )}
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={saving}>
            {saving ? 'Saving...' : editing === 'new' ? 'Create Account' : 'Save Account'}
          </Button>
          {editing !== 'new' && <Button onClick={() => editor.open(null)}>Cancel</Button>}
        </Stack>
      </Stack>
    </Box>
  );
}

/** One account in the list: name, type, balance, Register / Edit / Delete, and its edit form when open. */
function AccountItem({ account, editor }: { account: AccountDto; editor: AccountEditor }) {
  return (
    <ListItem divider disableGutters sx={{ display: 'block' }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'break-word' }}>{account.name}</Typography>
        <Chip size="small" label={account.type} color="primary" variant="outlined" />
      </Stack>
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {`Balance: ${formatMoney(account.balance, { currency: account.currency })}`}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mt: 0.5 }}>
        <ButtonLink
          size="small"
          to="/accounts/$id"
          params={{ id: String(account.id) }}
          aria-label={`Register of ${account.name}`}
        >
          Register
        </ButtonLink>
        <Button size="small" onClick={() => editor.open(account)} aria-label={`Edit ${account.name}`}>
          Edit
        </Button>
        <Button
          size="small"
          color="error"
          onClick={() => editor.setDeleting(account)}
          aria-label={`Delete ${account.name}`}
        >
          Delete
        </Button>
      </Stack>
      {editor.editing === account.id && <AccountForm editor={editor} />}
    </ListItem>
  );
}

/** The Accounts widget beside the upload form: list, add, edit and delete accounts. */
export function AccountsWidget({ accounts, loading, failed, showNotice }: AccountsWidgetProps) {
  const editor = useAccountEditor(showNotice);
  const { editing } = editor;
  const sorted = [...accounts].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));

  return (
    <Paper component="section" aria-labelledby="accounts-heading" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography id="accounts-heading" variant="h2">
          Accounts
        </Typography>
        <Button
          variant={editing === 'new' ? 'text' : 'outlined'}
          onClick={() => editor.open(editing === 'new' ? null : 'new')}
          aria-expanded={editing === 'new'}
        >
          {editing === 'new' ? 'Cancel' : 'Add Account'}
        </Button>
      </Stack>
      {editing === 'new' && <AccountForm editor={editor} />}
      {loading && (
        <Box sx={{ p: 2, display: 'flex', justifyContent: 'center' }}>
          <CircularProgress aria-label="Loading accounts" />
        </Box>
      )}
      {failed && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          Failed to fetch accounts
        </Alert>
      )}
      {!loading && !failed && sorted.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          No accounts found. Create one to get started.
        </Typography>
      )}
      {sorted.length > 0 && (
        <List aria-label="Accounts" sx={{ mt: 1 }}>
          {sorted.map((account) => (
            <AccountItem key={account.id} account={account} editor={editor} />
          ))}
        </List>
      )}
      <ConfirmDialog
        open={editor.deleting !== null}
        title="Delete account"
        message="Are you sure you want to delete this account?"
        confirmLabel="Delete"
        destructive
        busy={editor.deletePending}
        onConfirm={() => void editor.confirmDelete()}
        onCancel={() => editor.setDeleting(null)}
      />
    </Paper>
  );
}
