import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { payeeFilters, type PayeeTotal, type ReportRange } from '../../../shared/reports';
import { TextLink } from '../../components/RouterLinks';
import { transactionSearchOf } from '../transactions/searchParams';
import { figure } from './format';
import { ReportSection } from './ReportSection';
import { useReportCurrency } from './reportCurrency';

/** The range's top payees by the size of their total; a payee opens its rows on the Transactions screen. */
export function PayeesSection({ payees, range }: { payees: PayeeTotal[]; range: ReportRange }) {
  const currency = useReportCurrency();
  return (
    <ReportSection id="payees-heading" title="Top payees">
      {payees.length === 0 && <Typography color="text.secondary">No transactions in this range.</Typography>}
      {payees.length > 0 && (
        <TableContainer>
          <Table size="small" aria-label="Top payees">
            <TableHead>
              <TableRow>
                <TableCell component="th">Payee</TableCell>
                <TableCell component="th" align="right">
                  Transactions
                </TableCell>
                <TableCell component="th" align="right">
                  Total
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {payees.map((payee) => (
                <TableRow key={payee.payee}>
                  <TableCell component="th" scope="row" sx={{ overflowWrap: 'break-word' }}>
                    <TextLink
                      to="/transactions"
                      search={transactionSearchOf(payeeFilters(range, payee.payee))}
                      underline="hover"
                    >
                      {payee.payee}
                    </TextLink>
                  </TableCell>
                  <TableCell align="right">{payee.count}</TableCell>
                  <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                    {figure(payee.total, currency)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </ReportSection>
  );
}
