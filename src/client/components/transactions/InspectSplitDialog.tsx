import {
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { skipToken } from '@tanstack/react-query';
import { useState } from 'react';
import type { SplitDetails, TransactionDto } from '../../../shared/schemas/transactions';
import { trpc } from '../../lib/trpc';
import { FormDialog } from '../FormDialog';
import { Amount } from './Amount';

interface InspectSplitDialogProps {
  /** A split parent or part; the dialog is open while it is set. */
  transactionId: number | null;
  onClose: () => void;
  /** Edit Split: called with freshly reloaded details. */
  onEdit: (details: SplitDetails) => void;
}

function SplitRow({ tx, emphasise }: { tx: TransactionDto; emphasise?: boolean }) {
  const weight = emphasise ? 600 : undefined;
  return (
    <TableRow>
      <TableCell sx={{ fontWeight: weight, whiteSpace: 'nowrap' }}>{emphasise ? 'Original' : 'Part'}</TableCell>
      <TableCell sx={{ fontWeight: weight }}>{tx.description}</TableCell>
      <TableCell align="right" sx={{ fontWeight: weight }}>
        <Amount cents={tx.amount} />
      </TableCell>
      <TableCell>{tx.category ?? 'Uncategorized'}</TableCell>
      <TableCell>{tx.splitNote ?? ''}</TableCell>
    </TableRow>
  );
}

/** Shows a split: the original transaction and its parts, with Edit Split. */
export function InspectSplitDialog({ transactionId, onClose, onEdit }: InspectSplitDialogProps) {
  const [reloading, setReloading] = useState(false);
  const [editError, setEditError] = useState(false);
  const query = trpc.transactions.splits.useQuery(transactionId === null ? skipToken : { id: transactionId }, {
    staleTime: 0,
    retry: false,
  });

  const utils = trpc.useUtils();

  /** Edit Split reloads the split by its parent (parts may have been replaced meanwhile). */
  async function edit() {
    const parentId = query.data?.parentTransaction.id;
    if (parentId === undefined) return;
    setEditError(false);
    setReloading(true);
    try {
      const fresh = await utils.client.transactions.splits.query({ id: parentId });
      onEdit(fresh);
    } catch (failure) {
      console.error('Reloading the split failed', failure);
      setEditError(true);
    } finally {
      setReloading(false);
    }
  }

  const details = query.data;
  const failed = query.isError || editError;
  return (
    <FormDialog
      open={transactionId !== null}
      title="Inspect Split"
      error={failed ? 'Failed to load split transaction details.' : null}
      busy={reloading}
      onSubmit={edit}
      onClose={onClose}
      submitLabel="Edit Split"
      busyLabel="Loading…"
      cancelLabel="Close"
      canSubmit={Boolean(details)}
      maxWidth="md"
      fullScreenOnPhone
    >
      {query.isLoading && <CircularProgress aria-label="Loading split" size={28} />}
      {details && <SplitTable details={details} />}
    </FormDialog>
  );
}

function SplitTable({ details }: { details: SplitDetails }) {
  return (
    <>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {details.parentTransaction.postDate} · {details.childTransactions.length} parts
      </Typography>
      <TableContainer>
        <Table size="small" aria-label="Split transaction details">
          <TableHead>
            <TableRow>
              <TableCell>Row</TableCell>
              <TableCell>Description</TableCell>
              <TableCell align="right">Amount</TableCell>
              <TableCell>Category</TableCell>
              <TableCell>Split Note</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            <SplitRow tx={details.parentTransaction} emphasise />
            {details.childTransactions.map((child) => (
              <SplitRow key={child.id} tx={child} />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}
