import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import { keepPreviousData } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { localIsoDate } from '../../../shared/dates/calendar';
import { spendingChart, type ReportRange } from '../../../shared/reports';
import type { TransactionFilters } from '../../../shared/schemas/transactions';
import { useAccountNames } from '../../components/transactions/hooks';
import { serverMessage, trpc } from '../../lib/trpc';
import { transactionSearchOf } from '../transactions/searchParams';
import { ConvertedNote } from '../../components/ConvertedNote';
import { useHomeCurrency } from '../../lib/currency';
import { CashflowSection } from './CashflowSection';
import { ReportCurrency } from './reportCurrency';
import { PayeesSection } from './PayeesSection';
import { ReportControls } from './ReportControls';
import { resolveReportSearch, type ReportSearch } from './reportSearch';
import { SpendingSection } from './SpendingSection';
import { omitWhere } from '../../lib/objects';

const route = getRouteApi('/_auth/reports');

/**
 * Reports (/reports): spending by category per month, income against expenses with the net,
 * and the top payees, over a preset or custom range and optionally one account. The range,
 * account and table view live in the URL. Bars, table figures and payees open the
 * Transactions screen on exactly their rows.
 */
export function ReportsScreen() {
  const search = route.useSearch();
  const navigate = useNavigate();
  const [today] = useState(() => localIsoDate(new Date()));
  const view = resolveReportSearch(search, today);
  const accounts = useAccountNames();
  const range: ReportRange = useMemo(
    () => ({ startDate: view.startDate, endDate: view.endDate, ...(view.account ? { account: view.account } : {}) }),
    [view.startDate, view.endDate, view.account],
  );
  const enabled = view.problem === null;
  const monthly = trpc.reports.monthly.useQuery(range, { enabled, placeholderData: keepPreviousData });
  const payees = trpc.reports.payees.useQuery({ ...range, limit: 20 }, { enabled, placeholderData: keepPreviousData });
  const chart = useMemo(() => (monthly.data ? spendingChart(monthly.data) : null), [monthly.data]);

  function change(patch: Partial<ReportSearch>) {
    const next = omitWhere<ReportSearch>({ ...search, ...patch }, (_key, value) => value === undefined);
    void navigate({ to: '/reports', search: next, replace: true });
  }
  const open = (filters: TransactionFilters) =>
    void navigate({ to: '/transactions', search: transactionSearchOf(filters) });
  const failure = monthly.error ?? payees.error;
  const home = useHomeCurrency();
  const currency = monthly.data?.[0]?.currency ?? home;

  return (
    <Box>
      <Typography variant="h1" gutterBottom>
        Reports
      </Typography>
      <ReportControls view={view} accountNames={accounts.names} onChange={change} />
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {serverMessage(failure, 'Failed to load the reports')}
        </Alert>
      )}
      {enabled && monthly.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label="Loading reports" />
        </Box>
      )}
      {enabled && chart && monthly.data && (
        <Box aria-busy={monthly.isFetching || payees.isFetching}>
          <ConvertedNote currency={currency} noRate={monthly.data.reduce((n, row) => n + (row.noRate ?? 0), 0)} />
          <ReportCurrency.Provider value={currency}>
            <SpendingSection chart={chart} range={range} table={view.table} onOpen={open} />
            {chart.otherName && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: -2, mb: 3 }}>
                {`${chart.otherName}: ${chart.series.at(-1)?.categories.join(', ') ?? ''}`}
              </Typography>
            )}
            <CashflowSection report={monthly.data} range={range} table={view.table} onOpen={open} />
            <PayeesSection payees={payees.data ?? []} range={range} />
          </ReportCurrency.Provider>
        </Box>
      )}
    </Box>
  );
}
