import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { localIsoDate } from '../../../shared/dates/calendar';
import type { NetWorthPoint } from '../../../shared/accounts/net-worth';
import type { AccountDto } from '../../../shared/schemas/accounts';
import { Notice, useNotice } from '../../components/Notice';
import { TextLink } from '../../components/RouterLinks';
import { Amount } from '../../components/transactions/Amount';
import { useHomeCurrency } from '../../lib/currency';
import { serverMessage, trpc } from '../../lib/trpc';
import { AccountDialog } from './AccountDialog';
import { NetWorthChart } from './NetWorthChart';

/** Read by screen readers, not shown. */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** Hidden on phones: the name cell shows the same under the name there. */
const WIDE = { display: { xs: 'none', sm: 'table-cell' } } as const;

/**
 * Every account with its type, balance (opening balance plus its transactions) and last
 * import, the net worth they add up to and its line over the last twelve months.
 */
export function AccountsScreen() {
  const accounts = trpc.accounts.list.useQuery();
  const [today] = useState(() => localIsoDate(new Date()));
  const netWorth = trpc.accounts.netWorth.useQuery({ months: 12, endDate: today });
  const [editing, setEditing] = useState<AccountDto | 'new' | null>(null);
  const [notice, showNotice, clearNotice] = useNotice();
  const rows = accounts.data ?? [];
  const home = useHomeCurrency();
  // Accounts in several currencies add up only converted: the server values each at today's rate.
  const converted = rows.some((account) => account.currency !== home) ? (netWorth.data?.points.at(-1) ?? null) : null;
  return (
    <Box>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography variant="h1">Accounts</Typography>
        <Button variant="contained" onClick={() => setEditing('new')}>
          New account
        </Button>
      </Stack>
      {accounts.isPending && <CircularProgress aria-label="Loading accounts" />}
      {accounts.error && (
        <Alert severity="error" role="alert">
          {serverMessage(accounts.error, 'Failed to load the accounts')}
        </Alert>
      )}
      {accounts.isSuccess && rows.length === 0 && (
        <Typography color="text.secondary">
          No accounts yet. Create one with its opening balance, then import its statements.
        </Typography>
      )}
      {rows.length > 0 && <AccountsTable rows={rows} onEdit={setEditing} home={home} converted={converted} />}
      {rows.length > 0 && netWorth.data && (
        <Paper component="section" aria-labelledby="net-worth-heading" sx={{ p: { xs: 2, sm: 3 }, mt: 2 }}>
          <Typography id="net-worth-heading" variant="h2" gutterBottom>
            Net worth, last 12 months
          </Typography>
          <NetWorthChart
            points={netWorth.data.points}
            currency={netWorth.data.currency}
            converted={rows.some((account) => account.currency !== home)}
          />
        </Paper>
      )}
      {editing !== null && (
        <AccountDialog
          account={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            showNotice(created ? `Account '${saved.name}' created` : `Account '${saved.name}' saved`);
          }}
        />
      )}
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}

interface AccountsTableProps {
  rows: readonly AccountDto[];
  onEdit: (account: AccountDto) => void;
  home: string;
  /** The net worth valued in the home currency, when accounts are in several currencies. */
  converted: NetWorthPoint | null;
}

function AccountsTable({ rows, onEdit, home, converted }: AccountsTableProps) {
  const several = rows.some((account) => account.currency !== home);
  const total = several ? (converted?.netWorth ?? null) : rows.reduce((sum, account) => sum + account.balance, 0);
  return (
    <Paper component="section" aria-label="Accounts">
      <TableContainer>
        <Table aria-label="Accounts">
          <TableHead>
            <TableRow>
              <TableCell>Account</TableCell>
              <TableCell sx={WIDE}>Type</TableCell>
              <TableCell sx={WIDE}>Currency</TableCell>
              <TableCell sx={WIDE}>Plan</TableCell>
              <TableCell align="right">Balance</TableCell>
              <TableCell sx={WIDE}>Last import</TableCell>
              <TableCell align="right">
                <Box component="span" sx={visuallyHidden}>
                  Actions
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((account) => (
              <AccountRow key={account.id} account={account} onEdit={onEdit} />
            ))}
          </TableBody>
          <TableFooter>
            <TableRow>
              <TableCell component="th" scope="row" sx={{ fontWeight: 700, color: 'text.primary' }}>
                Net worth
              </TableCell>
              <TableCell sx={WIDE} />
              <TableCell sx={WIDE} />
              <TableCell sx={WIDE} />
              <TableCell align="right" sx={{ fontWeight: 700, color: 'text.primary' }} data-testid="net-worth">
                {total === null ? '…' : <Amount cents={total} currency={home} />}
                {several && (
                  <Typography variant="caption" color="text.secondary" component="div" sx={{ fontWeight: 400 }}>
                    {`In ${home}, converted at today’s rates${converted?.noRate ? `; ${converted.noRate} without a rate left out` : ''}`}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={WIDE} />
              <TableCell />
            </TableRow>
          </TableFooter>
        </Table>
      </TableContainer>
    </Paper>
  );
}

function planText(account: AccountDto): string {
  return account.onBudget ? 'On plan' : 'Off plan';
}

function lastImportText(account: AccountDto): string {
  const last = account.lastImport;
  if (!last) return 'Never';
  return `${last.uploadDate.slice(0, 10)} · ${last.fileName ?? 'no file name'}`;
}

function AccountRow({ account, onEdit }: { account: AccountDto; onEdit: (account: AccountDto) => void }) {
  return (
    <TableRow>
      <TableCell component="th" scope="row">
        <TextLink to="/accounts/$id" params={{ id: String(account.id) }} sx={{ fontWeight: 600 }}>
          {account.name}
        </TextLink>
        <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
          {`${account.type} · ${account.currency} · ${planText(account)} · last import ${lastImportText(account)}`}
        </Typography>
      </TableCell>
      <TableCell sx={WIDE}>{account.type}</TableCell>
      <TableCell sx={WIDE}>{account.currency}</TableCell>
      <TableCell sx={WIDE}>{planText(account)}</TableCell>
      <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
        <Amount cents={account.balance} currency={account.currency} />
      </TableCell>
      <TableCell sx={WIDE}>{lastImportText(account)}</TableCell>
      <TableCell align="right">
        <Button size="small" onClick={() => onEdit(account)} aria-label={`Edit ${account.name}`}>
          Edit
        </Button>
      </TableCell>
    </TableRow>
  );
}
