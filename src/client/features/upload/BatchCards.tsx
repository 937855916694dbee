import { Button, Paper, Stack, Typography } from '@mui/material';
import type { KeyboardEvent } from 'react';
import type { BatchDto } from '../../../shared/schemas/transactions';
import { formatDateTime } from '../../lib/format';

/** What a batch is called on screen: its file and when it was uploaded, not its UUID. */
export function batchTitle(batch: BatchDto): string {
  return `${batch.fileName ?? 'Upload'} — ${formatDateTime(batch.uploadDate)}`;
}

interface BatchCardsProps {
  batches: readonly BatchDto[];
  selectedId: string | null;
  onOpen: (batch: BatchDto) => void;
  onDelete: (batch: BatchDto) => void;
}

/** The batches below 768 px: one card each, every field on view and nothing cut. */
export function BatchCards({ batches, selectedId, onOpen, onDelete }: BatchCardsProps) {
  function onKey(event: KeyboardEvent, batch: BatchDto) {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(batch);
    }
  }
  return (
    <Stack component="ul" aria-label="Transaction batches" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {batches.map((batch) => (
        <Paper
          component="li"
          key={batch.batchId}
          variant="outlined"
          tabIndex={0}
          aria-current={selectedId === batch.batchId ? 'true' : undefined}
          onClick={() => onOpen(batch)}
          onKeyDown={(e) => onKey(e, batch)}
          sx={{ p: 1.5, cursor: 'pointer', borderColor: selectedId === batch.batchId ? 'primary.main' : 'divider' }}
        >
          <Typography sx={{ fontWeight: 600, overflowWrap: 'break-word' }}>{batch.fileName ?? 'Upload'}</Typography>
          <Typography variant="body2">{`${batch.transactionCount} txns · ${formatDateTime(batch.uploadDate)}`}</Typography>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'break-word' }}>
            {`Batch ID ${batch.batchId.slice(0, 8)}${batch.account ? ` · ${batch.account}` : ''}`}
          </Typography>
          <Button
            size="small"
            color="error"
            sx={{ mt: 0.5, color: 'error.dark' }}
            onClick={(e) => {
              e.stopPropagation();
              onDelete(batch);
            }}
            aria-label={`Delete Batch ${batch.batchId.slice(0, 8)}`}
          >
            Delete Batch
          </Button>
        </Paper>
      ))}
    </Stack>
  );
}
