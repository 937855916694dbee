import { Alert, Autocomplete, MenuItem, Stack, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { isReservedCategoryName, reservedCategoryOnTransactionMessage } from '../../../shared/categories';
import { TRANSACTION_TYPES, type TransactionDto, type TransactionType } from '../../../shared/schemas/transactions';
import { refusalMessage, trpc } from '../../lib/trpc';
import { FormDialog } from '../FormDialog';
import { useAccountNames } from './hooks';

interface BulkEditDialogProps {
  open: boolean;
  transactionIds: number[];
  categoryNames: readonly string[];
  onClose: () => void;
  onUpdated: (rows: TransactionDto[]) => void;
}

/** Sets category, type and/or account on every selected transaction at once. */
export function BulkEditDialog({ open, transactionIds, categoryNames, onClose, onUpdated }: BulkEditDialogProps) {
  const [category, setCategory] = useState('');
  const [type, setType] = useState<TransactionType | ''>('');
  const [account, setAccount] = useState('');
  const [error, setError] = useState('');
  const accounts = useAccountNames();
  const bulkUpdate = trpc.transactions.bulkUpdate.useMutation();
  const utils = trpc.useUtils();

  useEffect(() => {
    if (open) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- opening the dialog starts from an empty form (MUI keeps the closed dialog mounted)
      setCategory('');
      setType('');
      setAccount('');
      setError('');
    }
  }, [open]);

  async function submit() {
    setError('');
    const updates: { category?: string; type?: TransactionType; account?: string } = {};
    if (category.trim()) updates.category = category.trim();
    if (type) updates.type = type;
    if (account) updates.account = account;
    if (Object.keys(updates).length === 0) {
      setError('Please select at least one field to update');
      return;
    }
    if (isReservedCategoryName(updates.category)) {
      setError(reservedCategoryOnTransactionMessage(category));
      return;
    }
    try {
      const rows = await bulkUpdate.mutateAsync({ transactionIds, updates });
      if (updates.category) void utils.categories.list.invalidate();
      onUpdated(rows);
      onClose();
    } catch (failure) {
      console.error('Bulk update failed', failure);
      setError(refusalMessage(failure, 'Failed to update transactions. Please try again.'));
    }
  }

  return (
    <FormDialog
      open={open}
      title={`Bulk Edit ${transactionIds.length} transaction${transactionIds.length === 1 ? '' : 's'}`}
      error={error}
      mutation={bulkUpdate}
      onSubmit={submit}
      onClose={onClose}
      submitLabel="Update"
      busyLabel="Updating…"
    >
      <BulkEditFields
        categoryNames={categoryNames}
        accounts={accounts}
        category={category}
        type={type}
        account={account}
        onCategory={setCategory}
        onType={setType}
        onAccount={setAccount}
      />
    </FormDialog>
  );
}

interface BulkEditFieldsProps {
  categoryNames: readonly string[];
  /** The account names to choose from, with the error of loading them. */
  accounts: ReturnType<typeof useAccountNames>;
  category: string;
  type: TransactionType | '';
  account: string;
  onCategory: (category: string) => void;
  onType: (type: TransactionType | '') => void;
  onAccount: (account: string) => void;
}

/** The fields to change; each left empty ("No change") keeps every row's own value. */
function BulkEditFields(props: BulkEditFieldsProps) {
  const { categoryNames, accounts, category, type, account, onCategory, onType, onAccount } = props;
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <Autocomplete
        freeSolo
        options={categoryNames}
        inputValue={category}
        onInputChange={(_e, value) => onCategory(value)}
        renderInput={(params) => (
          <TextField {...params} label="Category" helperText="Leave empty to keep each category" />
        )}
      />
      <TextField select label="Type" value={type} onChange={(e) => onType(e.target.value as TransactionType | '')}>
        <MenuItem value="">
          <em>No change</em>
        </MenuItem>
        {TRANSACTION_TYPES.map((t) => (
          <MenuItem key={t} value={t}>
            {t}
          </MenuItem>
        ))}
      </TextField>
      <TextField select label="Account" value={account} onChange={(e) => onAccount(e.target.value)}>
        <MenuItem value="">
          <em>No change</em>
        </MenuItem>
        {accounts.names.map((name) => (
          <MenuItem key={name} value={name}>
            {name}
          </MenuItem>
        ))}
      </TextField>
      {accounts.error && <Alert severity="warning">{accounts.error}</Alert>}
    </Stack>
  );
}
