import {
  Alert,
  Box,
  Chip,
  CircularProgress,
  Paper,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { keepPreviousData } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { localIsoDate } from '../../../shared/dates/calendar';
import { formatMoney } from '../../../shared/money';
import type { AccountDto } from '../../../shared/schemas/accounts';
import type { RegisterRow } from '../../../shared/schemas/register';
import { serverMessage, trpc } from '../../lib/trpc';
import { ReconcilePanel } from './ReconcilePanel';
import { REGISTER_RANGES, resolveRegisterRange, type RegisterRangeName, type RegisterSearch } from './registerSearch';
import { RegisterTable } from './RegisterTable';
import { useRegisterEdits } from './useRegisterEdits';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { omitWhere } from '../../lib/objects';
import { TextLink } from '../../components/RouterLinks';
import { AccountUpcoming } from '../schedules/AccountUpcoming';

const route = getRouteApi('/_auth/accounts/$id');

/**
 * An account's register (/accounts/$id): its transactions newest first with the running
 * balance, over a date range kept in the URL, and reconciling with a bank statement.
 */
export function AccountRegisterScreen() {
  const id = Number(route.useParams({ select: (params) => params.id }));
  const search = route.useSearch();
  const navigate = useNavigate();
  const [today] = useState(() => localIsoDate(new Date()));
  const range = resolveRegisterRange(search, today);
  const validId = Number.isSafeInteger(id) && id > 0;
  const accounts = trpc.accounts.list.useQuery();
  const account = accounts.data?.find((a) => a.id === id);
  const dates = {
    ...(range.startDate ? { startDate: range.startDate } : {}),
    ...(range.endDate ? { endDate: range.endDate } : {}),
  };
  const inOrder = !dates.startDate || !dates.endDate || dates.startDate <= dates.endDate;
  const edits = useRegisterEdits({ id, ...dates });
  const register = trpc.accounts.register.useQuery(
    { id, ...dates },
    { enabled: validId && inOrder, placeholderData: keepPreviousData },
  );

  // The opening balance is listed below every row, when the range reaches its date.
  const opening =
    account &&
    (!dates.startDate || dates.startDate <= account.openingDate) &&
    (!dates.endDate || dates.endDate >= account.openingDate)
      ? { date: account.openingDate, balance: account.openingBalance, currency: account.currency }
      : undefined;

  function change(patch: RegisterSearch) {
    const next = omitWhere<RegisterSearch>({ ...search, ...patch }, (_key, value) => value === undefined);
    void navigate({ to: '/accounts/$id', params: { id: String(id) }, search: next, replace: true });
  }

  if (!validId || (accounts.isSuccess && !account)) {
    return (
      <Typography variant="h1" gutterBottom>
        Account not found
      </Typography>
    );
  }
  return (
    <Box>
      <Typography variant="h1" gutterBottom>
        {account ? `Register: ${account.name}` : 'Register'}
      </Typography>
      {account && <AccountSummary account={account} />}
      <ReconcilePanel accountId={id} currency={account?.currency ?? null} />
      <AccountUpcoming accountId={id} days={search.ahead ?? 30} onDays={(ahead) => change({ ahead })} />
      <Paper component="section" aria-labelledby="register-heading" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography id="register-heading" variant="h2" gutterBottom>
          Transactions
        </Typography>
        <RegisterRangePicker range={range} inOrder={inOrder} onChange={change} />
        {register.error && (
          <Alert severity="error" role="alert">
            {serverMessage(register.error, 'Failed to load the register')}
          </Alert>
        )}
        {register.isPending && inOrder && <CircularProgress aria-label="Loading the register" />}
        {register.data && <RegisterRows rows={register.data} opening={opening} edits={edits} />}
      </Paper>
    </Box>
  );
}

/** The account's type, balance and opening balance, in its currency. */
function AccountSummary({ account }: { account: AccountDto }) {
  return (
    <Stack direction="row" sx={{ alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
      <Chip size="small" label={account.type} color="primary" variant="outlined" />
      <Typography sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="register-balance">
        {`Balance: ${formatMoney(account.balance, { currency: account.currency })}`}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {`Opening balance ${formatMoney(account.openingBalance, { currency: account.currency })} on ${account.openingDate}`}
      </Typography>
      <TextLink to="/accounts">All accounts</TextLink>
    </Stack>
  );
}

interface RegisterRangePickerProps {
  range: ReturnType<typeof resolveRegisterRange>;
  /** The dates are in order (an End Date before the Start Date is refused under it). */
  inOrder: boolean;
  onChange: (patch: RegisterSearch) => void;
}

/** The register's range: a named range, or Custom with its own dates (typing a date makes the range Custom). */
function RegisterRangePicker({ range, inOrder, onChange: change }: RegisterRangePickerProps) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 2 }}>
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        aria-label="Register range"
        value={range.range}
        onChange={(_e, value: RegisterRangeName | null) => {
          if (!value) return;
          change(
            value === 'Custom'
              ? { range: value, startDate: range.startDate, endDate: range.endDate }
              : { range: value, startDate: undefined, endDate: undefined },
          );
        }}
        sx={{ flexWrap: 'wrap' }}
      >
        {REGISTER_RANGES.map((name) => (
          <ToggleButton key={name} value={name} sx={{ textTransform: 'none' }}>
            {name}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <TextField
        label="Start Date"
        type="date"
        value={range.startDate ?? ''}
        onChange={(e) => change({ range: 'Custom', startDate: e.target.value || undefined, endDate: range.endDate })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        label="End Date"
        type="date"
        value={range.endDate ?? ''}
        error={!inOrder}
        helperText={inOrder ? undefined : 'End Date must not be before Start Date'}
        onChange={(e) => change({ range: 'Custom', startDate: range.startDate, endDate: e.target.value || undefined })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </Box>
  );
}

interface RegisterRowsProps {
  rows: RegisterRow[];
  opening: { date: string; balance: number; currency: string } | undefined;
  edits: ReturnType<typeof useRegisterEdits>;
}

/** The rows of the range, edited in place; a change to a reconciled row is confirmed first. */
function RegisterRows({ rows, opening, edits }: RegisterRowsProps) {
  return (
    <>
      <Typography variant="body2" color="text.secondary" role="status" sx={{ mb: 1 }}>
        {`${rows.length} transactions`}
      </Typography>
      {(rows.length > 0 || opening) && <RegisterTable rows={rows} label="Register" opening={opening} edits={edits} />}
      {edits.message && (
        <Alert severity="error" role="alert" onClose={edits.clearMessage} sx={{ mt: 1 }}>
          {edits.message}
        </Alert>
      )}
      <ConfirmDialog
        open={edits.pending !== null}
        title="Change a reconciled transaction?"
        message={`“${edits.pending?.row.description ?? ''}” agreed with a bank statement. Changing its amount or date changes that reconciliation.`}
        confirmLabel="Change it"
        onConfirm={() => void edits.confirm()}
        onCancel={edits.cancel}
      />
    </>
  );
}
