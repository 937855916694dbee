import { Box, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import type { StatementSummary } from '../../../shared/csv/types';
import { ACCOUNT_TYPES, type AccountDto, type AccountType } from '../../../shared/schemas/accounts';
import type { StatementRoute } from '../../../shared/schemas/import';

/** Where a person sends one statement: '' the chosen account, 'skip', 'new' (a name and type), or an account's name. */
export interface StatementChoice {
  target: string;
  newName: string;
  newType: AccountType;
}

export type StatementChoices = Record<number, StatementChoice>;

const SKIP = 'skip';
const NEW = 'new';

/** The routes POST /api/upload takes for the choices (statements left at the chosen account are not sent). */
export function statementRoutes(choices: StatementChoices): StatementRoute[] {
  return Object.entries(choices).flatMap(([index, choice]): StatementRoute[] => {
    const statement = Number(index);
    if (choice.target === '') return [];
    if (choice.target === SKIP) return [{ statement, account: null }];
    if (choice.target === NEW)
      return choice.newName.trim() ? [{ statement, account: choice.newName.trim(), type: choice.newType }] : [];
    return [{ statement, account: choice.target }];
  });
}

interface StatementRoutesProps {
  statements: readonly StatementSummary[];
  accounts: readonly AccountDto[];
  chosenAccount: string;
  choices: StatementChoices;
  onChange: (choices: StatementChoices) => void;
}

/** A file of several accounts' statements: each listed (account number, rows, dates), each sent where the person chooses. */
export function StatementRoutesPanel({ statements, accounts, chosenAccount, choices, onChange }: StatementRoutesProps) {
  const choiceOf = (s: StatementSummary): StatementChoice =>
    choices[s.index] ?? { target: '', newName: `Account ${s.account || s.index + 1}`, newType: 'checking' };
  const set = (s: StatementSummary, change: Partial<StatementChoice>) =>
    onChange({ ...choices, [s.index]: { ...choiceOf(s), ...change } });
  return (
    <Box component="section" aria-labelledby="statements-heading" sx={{ mb: 2 }}>
      <Typography id="statements-heading" variant="h3" component="h3" gutterBottom>
        {statements.length} accounts in this file
      </Typography>
      <Stack spacing={1}>
        {statements.map((s) => {
          const choice = choiceOf(s);
          const label = s.account || `Statement ${s.index + 1}`;
          return (
            <Paper key={s.index} variant="outlined" sx={{ p: 1.5 }} data-testid={`statement-${s.index}`}>
              <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ alignItems: { md: 'center' } }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography sx={{ overflowWrap: 'break-word', fontWeight: 500 }}>{label}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {s.rows} row{s.rows === 1 ? '' : 's'}
                    {s.dateRange ? `, ${s.dateRange[0]} to ${s.dateRange[1]}` : ''}
                    {s.currency ? `, ${s.currency}` : ''}
                  </Typography>
                </Box>
                <TextField
                  select
                  size="small"
                  label={`Import ${label} into`}
                  value={choice.target}
                  onChange={(e) => set(s, { target: e.target.value })}
                  sx={{ minWidth: 220 }}
                >
                  <MenuItem value="">
                    {chosenAccount ? `${chosenAccount} (chosen above)` : 'The chosen account'}
                  </MenuItem>
                  {accounts
                    .filter((a) => a.name !== chosenAccount)
                    .map((a) => (
                      <MenuItem key={a.id} value={a.name}>
                        {a.name}
                      </MenuItem>
                    ))}
                  <MenuItem value={NEW}>A new account…</MenuItem>
                  <MenuItem value={SKIP}>Skip this statement</MenuItem>
                </TextField>
                {choice.target === NEW && (
                  <Stack direction="row" spacing={1}>
                    <TextField
                      size="small"
                      label={`Name of the new account for ${label}`}
                      value={choice.newName}
                      onChange={(e) => set(s, { newName: e.target.value })}
                    />
                    <TextField
                      select
                      size="small"
                      label="Type"
                      value={choice.newType}
                      onChange={(e) => set(s, { newType: e.target.value as AccountType })}
                      sx={{ minWidth: 120 }}
                    >
                      {ACCOUNT_TYPES.map((type) => (
                        <MenuItem key={type} value={type}>
                          {type}
                        </MenuItem>
                      ))}
                    </TextField>
                  </Stack>
                )}
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </Box>
  );
}
