import { Alert, Box, Button, CircularProgress, LinearProgress, Paper, Typography } from '@mui/material';
import { useCallback, useRef, useState, type RefObject } from 'react';
import type { EnvelopeDto } from '../../../shared/schemas/envelopes';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Notice, useNotice } from '../../components/Notice';
import { recallFromEntry, rememberInEntry } from '../../lib/entryMemory';
import { trpc } from '../../lib/trpc';
import { ConvertedNote } from '../../components/ConvertedNote';
import { EnvelopeCard, envelopeButtonId } from './EnvelopeCard';
import { EnvelopeDateFilter } from './EnvelopeDateFilter';
import { ALL_TIME, rangeOf, type DateFilter } from './envelopeForm';
import { EnvelopeFormDialog } from './EnvelopeFormDialog';
import { EnvelopeTransactions } from './EnvelopeTransactions';

type Range = { startDate?: string; endDate?: string };

/**
 * Envelopes (/envelopes): the title with the count, the 'Show All Time' date filter, a grid of
 * envelope cards (total spent, count, tags, INACTIVE badge, Edit, Delete), the selected
 * envelope's transactions below, and the create/edit modal.
 */
export function EnvelopesScreen() {
  const { filter, range, checkedRange, changeFilter } = useRangeFilter();
  const [selectedId, setSelectedId] = useSelectedEnvelope();
  const [dialog, setDialog] = useState<{ open: boolean; envelope: EnvelopeDto | null; key: number }>({
    open: false,
    envelope: null,
    key: 0,
  });
  const [notice, showNotice, clearNotice] = useNotice();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const utils = trpc.useUtils();
  // While another range loads, the previous cards stay (no flash of the empty state).
  const list = trpc.envelopes.list.useQuery(range, { placeholderData: (previous) => previous });
  const deletion = useEnvelopeDeletion({ selectedId, setSelectedId, showNotice, headingRef });
  const envelopes = list.data ?? [];
  const selected = envelopes.find((envelope) => envelope.id === selectedId) ?? null;

  const refresh = useCallback(() => void utils.envelopes.list.invalidate(), [utils]);

  function closeTransactions() {
    const id = selectedId;
    setSelectedId(null);
    if (id !== null) document.getElementById(envelopeButtonId(id))?.focus();
  }

  function saved(envelope: EnvelopeDto, created: boolean) {
    setDialog((current) => ({ ...current, open: false }));
    refresh();
    showNotice(`Envelope '${envelope.name}' ${created ? 'created' : 'updated'}`);
  }

  const openDialog = (envelope: EnvelopeDto | null) =>
    setDialog((current) => ({ open: true, envelope, key: current.key + 1 }));
  const openCreate = () => openDialog(null);
  const isEmpty = list.isSuccess && envelopes.length === 0;

  return (
    <Box>
      <Header headingRef={headingRef} count={list.data ? envelopes.length : null} onCreate={openCreate} />
      <EnvelopeDateFilter
        filter={filter}
        error={checkedRange.ok ? undefined : checkedRange.error}
        onChange={changeFilter}
        onClear={() => changeFilter(ALL_TIME)}
      />
      {deletion.error && (
        <Alert severity="error" role="alert" onClose={() => deletion.setError('')} sx={{ mb: 2 }}>
          {deletion.error}
        </Alert>
      )}
      <ListStatus list={list} />
      {isEmpty && <NoEnvelopes onCreate={openCreate} />}
      {envelopes.length > 0 && <ConvertedNote currency={envelopes[0]?.currency} />}
      {envelopes.length > 0 && (
        <EnvelopeGrid
          envelopes={envelopes}
          selectedId={selectedId}
          onSelect={(id) => setSelectedId((current) => (current === id ? null : id))}
          onEdit={openDialog}
          onDelete={deletion.setToDelete}
        />
      )}
      {selected && <EnvelopeTransactions envelope={selected} loading={list.isFetching} onClose={closeTransactions} />}
      <EnvelopeFormDialog
        key={dialog.key}
        open={dialog.open}
        envelope={dialog.envelope}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
        onSaved={saved}
      />
      <ConfirmDialog
        open={deletion.toDelete !== null}
        title="Delete Envelope"
        message="Are you sure you want to delete this envelope? This will unlink all associated transactions."
        confirmLabel="Delete"
        destructive
        busy={deletion.pending}
        onConfirm={() => void deletion.confirmDelete()}
        onCancel={() => deletion.setToDelete(null)}
      />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}

interface EnvelopeDeletionOptions {
  selectedId: number | null;
  setSelectedId: (id: number | null) => void;
  showNotice: ReturnType<typeof useNotice>[1];
  /** Focus returns to the heading once the deleted envelope's card is gone. */
  headingRef: RefObject<HTMLHeadingElement | null>;
}

/** Deleting an envelope once confirmed (`toDelete`): its transactions close if shown; a failure is kept in `error`. */
function useEnvelopeDeletion({ selectedId, setSelectedId, showNotice, headingRef }: EnvelopeDeletionOptions) {
  const [toDelete, setToDelete] = useState<EnvelopeDto | null>(null);
  const [error, setError] = useState('');
  const utils = trpc.useUtils();
  const remove = trpc.envelopes.delete.useMutation();

  async function confirmDelete() {
    const envelope = toDelete;
    if (!envelope) return;
    setError('');
    try {
      await remove.mutateAsync({ id: envelope.id });
      if (selectedId === envelope.id) setSelectedId(null);
      await utils.envelopes.list.invalidate();
      showNotice(`Envelope '${envelope.name}' deleted`);
      headingRef.current?.focus();
    } catch {
      setError('Failed to delete envelope');
    } finally {
      setToDelete(null);
    }
  }
  return { toDelete, setToDelete, error, setError, confirmDelete, pending: remove.isPending };
}

/** The title with the count once known; Create Envelope once there is one (the empty state offers it otherwise). */
function Header({
  headingRef,
  count,
  onCreate,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
  count: number | null;
  onCreate: () => void;
}) {
  return (
    <Box
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 2 }}
    >
      <Typography variant="h1" ref={headingRef} tabIndex={-1} sx={{ outline: 'none' }}>
        {count === null ? 'Envelopes' : `Envelopes (${count})`}
      </Typography>
      {count !== null && count > 0 && (
        <Button variant="contained" onClick={onCreate}>
          Create Envelope
        </Button>
      )}
    </Box>
  );
}

/** The date filter as typed, and the last valid range it gave (From after To keeps the previous one until the dates make sense). */
function useRangeFilter() {
  const [filter, setFilter] = useState<DateFilter>(ALL_TIME);
  const [range, setRange] = useState<Range>({});
  const changeFilter = (next: DateFilter) => {
    setFilter(next);
    const checked = rangeOf(next);
    if (checked.ok) setRange(checked.range);
  };
  return { filter, range, checkedRange: rangeOf(filter), changeFilter };
}

/** The selected envelope, kept in the history entry: Back from Edit Transaction shows the same envelope's transactions. */
function useSelectedEnvelope() {
  const [selectedId, setSelectedIdState] = useState<number | null>(
    () => recallFromEntry<number | null>('envelopes.selected') ?? null,
  );
  const setSelectedId = useCallback((next: number | null | ((current: number | null) => number | null)) => {
    setSelectedIdState((current) => {
      const value = typeof next === 'function' ? next(current) : next;
      rememberInEntry('envelopes.selected', value);
      return value;
    });
  }, []);
  return [selectedId, setSelectedId] as const;
}

/** Loading (a spinner first, a bar while another range loads) and a failed fetch with Retry. */
function ListStatus({
  list,
}: {
  list: { isError: boolean; isLoading: boolean; isFetching: boolean; refetch: () => Promise<unknown> };
}) {
  return (
    <>
      {list.isError && (
        <Alert
          severity="error"
          role="alert"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void list.refetch()}>
              Retry
            </Button>
          }
        >
          Failed to fetch envelopes
        </Alert>
      )}
      {list.isLoading && (
        <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }}>
          <CircularProgress aria-label="Loading envelopes" />
        </Box>
      )}
      {list.isFetching && !list.isLoading && <LinearProgress aria-label="Loading envelopes" sx={{ mb: 1 }} />}
    </>
  );
}

function NoEnvelopes({ onCreate }: { onCreate: () => void }) {
  return (
    <Paper sx={{ p: { xs: 3, sm: 4 }, textAlign: 'center' }}>
      <Typography component="h2" variant="h2" gutterBottom>
        No Envelopes Yet
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Group categories into an envelope to follow what they spend.
      </Typography>
      <Button variant="contained" onClick={onCreate}>
        Create Envelope
      </Button>
    </Paper>
  );
}

interface EnvelopeGridProps {
  envelopes: EnvelopeDto[];
  selectedId: number | null;
  onSelect: (id: number) => void;
  onEdit: (envelope: EnvelopeDto) => void;
  onDelete: (envelope: EnvelopeDto) => void;
}

function EnvelopeGrid({ envelopes, selectedId, onSelect, onEdit, onDelete }: EnvelopeGridProps) {
  return (
    <Box
      component="ul"
      aria-label="Envelopes"
      sx={{
        listStyle: 'none',
        m: 0,
        p: 0,
        display: 'grid',
        gap: 2,
        gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 280px), 1fr))',
      }}
    >
      {envelopes.map((envelope) => (
        <EnvelopeCard
          key={envelope.id}
          envelope={envelope}
          selected={envelope.id === selectedId}
          onSelect={() => onSelect(envelope.id)}
          onEdit={() => onEdit(envelope)}
          onDelete={() => onDelete(envelope)}
        />
      ))}
    </Box>
  );
}
