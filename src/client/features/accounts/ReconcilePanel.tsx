import { skipToken } from '@tanstack/react-query';
import { Alert, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState, type SubmitEvent } from 'react';
import { formatMoney } from '../../../shared/money';
import type { ReconcileResult, StatementInput } from '../../../shared/schemas/register';
import { MoneyField } from '../../components/MoneyField';
import { readAmountField } from '../../lib/amountField';
import { browserLocale } from '../../lib/locale';
import { refusalMessage, serverMessage, trpc } from '../../lib/trpc';
import { RegisterTable } from './RegisterTable';

/**
 * Reconcile with a bank statement: its date and closing balance give the register's balance on
 * that date, the difference and the rows after it. Finishing marks the cleared rows up to the date
 * reconciled; a difference is first recorded as an adjustment transaction, when the person asks.
 */
export function ReconcilePanel({ accountId, currency }: { accountId: number; currency: string | null }) {
  const [date, setDate] = useState('');
  const [balanceText, setBalanceText] = useState('');
  const [errors, setErrors] = useState<{ date?: string; balance?: string }>({});
  const [statement, setStatement] = useState<StatementInput | null>(null);
  const [adjusted, setAdjusted] = useState<string | null>(null);
  const utils = trpc.useUtils();
  const reconcile = trpc.accounts.reconcile.useQuery(statement ? { id: accountId, ...statement } : skipToken);
  const adjust = trpc.accounts.adjustBalance.useMutation({
    onSuccess: async (result) => {
      utils.accounts.reconcile.setData(
        { id: accountId, statementDate: result.statementDate, statementBalance: result.statementBalance },
        result,
      );
      setAdjusted(
        `Reconciled: ${result.reconciledRows} cleared transactions marked reconciled; the balance is ${formatMoney(result.account.balance, { currency: result.account.currency })}`,
      );
      await Promise.all([utils.accounts.list.invalidate(), utils.accounts.register.invalidate({ id: accountId })]);
    },
  });

  function check(event: SubmitEvent) {
    event.preventDefault();
    const read = readAmountField(balanceText, browserLocale(), {
      required: true,
      requiredMessage: 'Statement balance is required',
      currency,
    });
    const next: typeof errors = {};
    if (!date) next.date = 'Statement date is required';
    if (!read.ok) next.balance = read.message;
    setErrors(next);
    setAdjusted(null);
    adjust.reset();
    if (next.date || next.balance || !read.ok || read.cents === null) return;
    setStatement({ statementDate: date, statementBalance: read.cents });
  }

  const result = reconcile.data;
  return (
    <Paper component="section" aria-labelledby="reconcile-heading" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
      <Typography id="reconcile-heading" variant="h2" gutterBottom>
        Reconcile
      </Typography>
      <StatementForm
        date={date}
        balanceText={balanceText}
        errors={errors}
        checking={reconcile.isFetching}
        currency={currency}
        onDate={setDate}
        onBalance={setBalanceText}
        onSubmit={check}
      />
      {reconcile.error && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {serverMessage(reconcile.error, 'Failed to reconcile')}
        </Alert>
      )}
      {result && (
        <StatementComparison
          result={result}
          adjusted={adjusted}
          finishing={adjust.isPending}
          finishError={adjust.error ? refusalMessage(adjust.error, 'Failed to reconcile') : null}
          onFinish={() =>
            statement && adjust.mutate({ id: accountId, ...statement, createAdjustment: result.difference !== 0 })
          }
        />
      )}
    </Paper>
  );
}

interface StatementFormProps {
  date: string;
  balanceText: string;
  errors: { date?: string; balance?: string };
  /** The figures for the statement are being fetched. */
  checking: boolean;
  /** The account's currency: the balance is read in its decimals. */
  currency: string | null;
  onDate: (date: string) => void;
  onBalance: (text: string) => void;
  onSubmit: (event: SubmitEvent) => void;
}

/** The statement's date and closing balance, and Reconcile. */
function StatementForm(props: StatementFormProps) {
  const { date, balanceText, errors, checking, currency, onDate, onBalance, onSubmit } = props;
  return (
    <Box
      component="form"
      onSubmit={onSubmit}
      noValidate
      aria-label="Statement"
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}
    >
      <TextField
        label="Statement date"
        type="date"
        required
        value={date}
        onChange={(e) => onDate(e.target.value)}
        error={Boolean(errors.date)}
        helperText={errors.date}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <MoneyField
        label="Statement balance"
        required
        value={balanceText}
        onChange={onBalance}
        error={errors.balance}
        currency={currency}
      />
      <Button type="submit" variant="contained" disabled={checking}>
        Reconcile
      </Button>
    </Box>
  );
}

interface StatementComparisonProps {
  result: ReconcileResult;
  /** What finishing did, once it has. */
  adjusted: string | null;
  finishing: boolean;
  /** Why finishing was refused, if it was. */
  finishError: string | null;
  onFinish: () => void;
}

/** The statement against the register: the figures, finishing (with an adjustment if they differ), later rows. */
function StatementComparison({ result, adjusted, finishing, finishError, onFinish }: StatementComparisonProps) {
  const money = (cents: number) => formatMoney(cents, { currency: result.account.currency });
  return (
    <Box sx={{ mt: 2 }}>
      <Stack
        direction="row"
        aria-label="Reconcile figures"
        sx={{ flexWrap: 'wrap', columnGap: 4, rowGap: 1, mb: 2, fontVariantNumeric: 'tabular-nums' }}
      >
        <span>{`Register balance on ${result.statementDate}: ${money(result.registerBalance)}`}</span>
        <span>{`Statement balance: ${money(result.statementBalance)}`}</span>
        <strong>{`Difference: ${money(result.difference)}`}</strong>
      </Stack>
      {result.difference === 0 && (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {adjusted ?? 'The register agrees with the statement.'}
        </Alert>
      )}
      {!adjusted && (
        <Stack direction="row" sx={{ alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 2 }}>
          <Button
            variant="outlined"
            color={result.difference === 0 ? 'primary' : 'warning'}
            disabled={finishing}
            onClick={onFinish}
          >
            {result.difference === 0 ? 'Finish reconciling' : 'Add adjustment and reconcile'}
          </Button>
          <Typography variant="body2" color="text.secondary">
            {result.difference === 0
              ? `Marks the cleared transactions up to ${result.statementDate} reconciled.`
              : `Records an adjustment transaction of ${money(result.difference)} on ${result.statementDate}, then marks the cleared transactions up to it reconciled.`}
          </Typography>
        </Stack>
      )}
      {finishError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {finishError}
        </Alert>
      )}
      <Typography variant="h3" gutterBottom>
        {`Transactions after ${result.statementDate} (${result.transactionsAfter.length})`}
      </Typography>
      {result.transactionsAfter.length > 0 && (
        <RegisterTable rows={result.transactionsAfter} label="Transactions after the statement" maxHeight={320} />
      )}
    </Box>
  );
}
