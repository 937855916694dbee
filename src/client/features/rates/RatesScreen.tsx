import {
  Box,
  Button,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState, type ComponentProps } from 'react';
import { localIsoDate } from '../../../shared/dates/calendar';
import type { RatePair } from '../../../shared/schemas/rates';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ListStatus } from '../../components/ListStatus';
import { Notice, useNotice } from '../../components/Notice';
import { useHomeCurrency } from '../../lib/currency';
import { serverMessage, trpc } from '../../lib/trpc';
import { RateDialog } from './RateDialog';
import { RateImport } from './RateImport';
import type { RateDraft } from './rateForm';

/** Hidden on phones: the pair's cell shows the same under it there. */
const WIDE = { display: { xs: 'none', sm: 'table-cell' } } as const;

/**
 * Exchange rates: import the ECB's files or a simple CSV, list the stored pairs with their dates and
 * latest rate, and add, change or delete a rate by hand.
 */
export function RatesScreen() {
  const pairs = trpc.rates.pairs.useQuery();
  const home = useHomeCurrency();
  const [editing, setEditing] = useState<{ draft: RateDraft; editing: boolean } | null>(null);
  const [deleting, setDeleting] = useState<RatePair | null>(null);
  const [notice, showNotice, clearNotice] = useNotice();
  const utils = trpc.useUtils();
  const remove = trpc.rates.delete.useMutation();
  const blank: RateDraft = {
    date: localIsoDate(new Date()),
    base: 'EUR',
    quote: home === 'EUR' ? 'USD' : home,
    rate: '',
  };

  async function confirmDelete(pair: RatePair) {
    try {
      const answer = await remove.mutateAsync({ base: pair.base, quote: pair.quote, date: pair.lastDate });
      await utils.invalidate();
      showNotice(answer.message);
    } catch (failure) {
      showNotice(serverMessage(failure, 'Failed to delete the rate'), 'error');
    } finally {
      setDeleting(null);
    }
  }

  return (
    <Box>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography variant="h1">Exchange rates</Typography>
        <Button variant="contained" onClick={() => setEditing({ draft: blank, editing: false })}>
          Add a rate
        </Button>
      </Stack>
      <RateImport />
      <StoredRates
        pairs={pairs}
        home={home}
        onEdit={(pair) =>
          setEditing({
            draft: { date: pair.lastDate, base: pair.base, quote: pair.quote, rate: pair.lastRate },
            editing: true,
          })
        }
        onDelete={setDeleting}
      />
      {editing && (
        <RateDialog
          initial={editing.draft}
          editing={editing.editing}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            showNotice(message);
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete rate"
        message={
          deleting
            ? `Delete the ${deleting.base} to ${deleting.quote} rate of ${deleting.lastDate} (${deleting.lastRate})? Figures of the days it served use an earlier rate within 7 days, or none.`
            : ''
        }
        confirmLabel="Delete"
        destructive
        mutation={remove}
        onConfirm={() => deleting && void confirmDelete(deleting)}
        onCancel={() => setDeleting(null)}
      />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}

interface StoredRatesProps {
  /** The pairs' query: its loading and error states, and the pairs. */
  pairs: ComponentProps<typeof ListStatus>['query'] & { data?: readonly RatePair[]; error: unknown };
  /** The user's home currency, named when there are no rates yet. */
  home: string;
  onEdit: (pair: RatePair) => void;
  onDelete: (pair: RatePair) => void;
}

/** The stored pairs with their dates and latest rate (or why there are none to show). */
function StoredRates({ pairs, home, onEdit, onDelete }: StoredRatesProps) {
  const rows = pairs.data ?? [];
  return (
    <Paper component="section" aria-labelledby="rate-pairs-heading">
      <Typography id="rate-pairs-heading" variant="h2" sx={{ p: { xs: 2, sm: 3 }, pb: { xs: 1, sm: 1 } }}>
        Stored rates
      </Typography>
      <ListStatus
        query={pairs}
        empty={rows.length === 0}
        loadingLabel="Loading rates"
        errorText={serverMessage(pairs.error, 'Failed to load the rates')}
        emptyText={`No rates yet. Import the ECB's file or add a rate: figures in other currencies than ${home} need one within 7 days of each transaction.`}
      />
      {rows.length > 0 && <PairsTable rows={rows} onEdit={onEdit} onDelete={onDelete} />}
    </Paper>
  );
}

interface PairsTableProps {
  rows: readonly RatePair[];
  onEdit: (pair: RatePair) => void;
  onDelete: (pair: RatePair) => void;
}

function PairsTable({ rows, onEdit, onDelete }: PairsTableProps) {
  return (
    <TableContainer>
      <Table aria-label="Stored rates">
        <TableHead>
          <TableRow>
            <TableCell>Pair</TableCell>
            <TableCell sx={WIDE} align="right">
              Rates
            </TableCell>
            <TableCell sx={WIDE}>From</TableCell>
            <TableCell sx={WIDE}>To</TableCell>
            <TableCell align="right">Latest rate</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((pair) => {
            const label = `${pair.base} to ${pair.quote}`;
            return (
              <TableRow key={`${pair.base}-${pair.quote}`}>
                <TableCell component="th" scope="row">
                  <Box component="span" sx={{ fontWeight: 600 }}>{`${pair.base} → ${pair.quote}`}</Box>
                  <Typography variant="body2" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                    {`${pair.count} rates, ${pair.firstDate} to ${pair.lastDate}`}
                  </Typography>
                </TableCell>
                <TableCell sx={WIDE} align="right">
                  {pair.count}
                </TableCell>
                <TableCell sx={WIDE}>{pair.firstDate}</TableCell>
                <TableCell sx={WIDE}>{pair.lastDate}</TableCell>
                <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {pair.lastRate}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Button size="small" onClick={() => onEdit(pair)} aria-label={`Edit the ${label} rate`}>
                    Edit
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    onClick={() => onDelete(pair)}
                    aria-label={`Delete the latest ${label} rate`}
                  >
                    Delete
                  </Button>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
