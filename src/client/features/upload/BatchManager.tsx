import RefreshIcon from '@mui/icons-material/Refresh';
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import type { BatchDto, TransactionDto } from '../../../shared/schemas/transactions';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { NoticeMessage } from '../../components/Notice';
import { TransactionTable } from '../../components/transactions/TransactionTable';
import { BatchCards, batchTitle } from './BatchCards';
import { BatchTable } from './BatchTable';
import { formatDateTime } from '../../lib/format';
import { trpc } from '../../lib/trpc';

const route = getRouteApi('/_auth/upload');

interface BatchManagerProps {
  showNotice: (text: string, severity?: NoticeMessage['severity']) => void;
}

/** "Delete the 8 transactions of “chase.csv”, uploaded Nov 28, 2026, 2:00 PM?": which batch, named as the list shows it. */
export function deleteBatchQuestion(batch: BatchDto): string {
  const rows = `${batch.transactionCount} transaction${batch.transactionCount === 1 ? '' : 's'}`;
  const name = batch.fileName ? `“${batch.fileName}”` : 'the upload';
  const trash = 'They go to the trash (History, Trash), where they can be restored for 30 days.';
  return `Delete the ${rows} of ${name}, uploaded ${formatDateTime(batch.uploadDate)}? ${trash}`;
}

/** Delete Batch: the batch asked about, and its deletion once confirmed (the lists that held its rows refresh). */
function useBatchDeletion(showNotice: BatchManagerProps['showNotice'], onDeleted: (batchId: string) => void) {
  const utils = trpc.useUtils();
  const deleteBatch = trpc.transactions.deleteBatch.useMutation();
  const [deleting, setDeleting] = useState<BatchDto | null>(null);

  async function confirm() {
    if (!deleting) return;
    try {
      await deleteBatch.mutateAsync({ batchId: deleting.batchId });
      onDeleted(deleting.batchId);
      showNotice('Batch deleted successfully');
      await Promise.all([utils.transactions.invalidate(), utils.envelopes.list.invalidate()]);
    } catch (error) {
      console.error('Failed to delete batch', error);
      showNotice('Failed to delete batch', 'error');
    } finally {
      setDeleting(null);
    }
  }
  return { deleting, ask: setDeleting, cancel: () => setDeleting(null), confirm, mutation: deleteBatch };
}

/**
 * Transaction Batches: every upload with its size and date, Delete Batch, and the
 * chosen batch's transactions in the shared table.
 */
export function BatchManager({ showNotice }: BatchManagerProps) {
  const navigate = useNavigate();
  const batches = trpc.transactions.batches.useQuery();
  // The batch being inspected lives in the URL (?batch=<id>): reload, a shared link and Back show it again.
  const selectedId = route.useSearch({ select: (search) => search.batch || null });
  const selected = selectedId ? (batches.data?.find((batch) => batch.batchId === selectedId) ?? null) : null;
  const rows = trpc.transactions.batchTransactions.useQuery(
    { batchId: selectedId ?? '' },
    { enabled: selectedId !== null },
  );

  useEffect(() => {
    if (rows.error) console.error('Failed to fetch batch transactions', rows.error);
  }, [rows.error]);

  const show = useCallback(
    (batchId: string | null) =>
      void navigate({ to: '/upload', search: batchId ? { batch: batchId } : {}, replace: true }),
    [navigate],
  );
  // Pressing the open batch again fetches its rows again.
  const load = (batch: BatchDto) => (batch.batchId === selectedId ? void rows.refetch() : show(batch.batchId));
  const clearSelection = () => show(null);
  const deletion = useBatchDeletion(showNotice, (batchId) => batchId === selectedId && clearSelection());

  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const list = batches.data ?? [];
  return (
    <Paper component="section" aria-labelledby="batches-heading" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}>
      <BatchesHeader
        selected={selected !== null}
        refreshing={batches.isFetching}
        onClear={clearSelection}
        onRefresh={() => void batches.refetch()}
      />
      {batches.isLoading && (
        <Box sx={{ p: 2, display: 'flex', justifyContent: 'center' }}>
          <CircularProgress aria-label="Loading batches" />
        </Box>
      )}
      {batches.isError && (
        <Alert severity="error" role="alert">
          Failed to fetch batches
        </Alert>
      )}
      {batches.isSuccess && list.length === 0 && (
        <Typography color="text.secondary">No transaction batches found.</Typography>
      )}
      {list.length > 0 && narrow && (
        <BatchCards batches={list} selectedId={selected?.batchId ?? null} onOpen={load} onDelete={deletion.ask} />
      )}
      {list.length > 0 && !narrow && (
        <BatchTable batches={list} selectedId={selectedId} onOpen={load} onDelete={deletion.ask} />
      )}
      {selected && <SelectedBatch batch={selected} rows={rows} />}
      <ConfirmDialog
        open={deletion.deleting !== null}
        title="Delete batch"
        message={deletion.deleting ? deleteBatchQuestion(deletion.deleting) : ''}
        confirmLabel="Delete Batch"
        destructive
        mutation={deletion.mutation}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
    </Paper>
  );
}

function BatchesHeader(props: { selected: boolean; refreshing: boolean; onClear: () => void; onRefresh: () => void }) {
  return (
    <Stack
      direction="row"
      sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 2 }}
    >
      <Typography id="batches-heading" variant="h2">
        Transaction Batches
      </Typography>
      <Stack direction="row" spacing={1}>
        {props.selected && <Button onClick={props.onClear}>Clear Selection</Button>}
        <Button startIcon={<RefreshIcon />} onClick={props.onRefresh} disabled={props.refreshing}>
          Refresh
        </Button>
      </Stack>
    </Stack>
  );
}

/** The inspected batch's rows in the shared table (edits there update the cached rows). */
function SelectedBatch({
  batch,
  rows,
}: {
  batch: BatchDto;
  rows: { isError: boolean; isFetching: boolean; data?: TransactionDto[] };
}) {
  return (
    <Box sx={{ mt: 3 }} aria-live="polite">
      <Typography variant="h3" component="h3" gutterBottom sx={{ overflowWrap: 'break-word' }}>
        {batchTitle(batch)}
      </Typography>
      {rows.isError ? (
        <Alert severity="error" role="alert">
          Failed to fetch batch transactions
        </Alert>
      ) : (
        <TransactionTable
          transactions={rows.data ?? []}
          loading={rows.isFetching}
          emptyText="No transactions found in this batch."
          maxHeight={480}
        />
      )}
    </Box>
  );
}
