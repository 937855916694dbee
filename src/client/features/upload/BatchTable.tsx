import { Button, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import type { KeyboardEvent } from 'react';
import type { BatchDto } from '../../../shared/schemas/transactions';
import { formatDateTime } from '../../lib/format';

interface BatchTableProps {
  batches: readonly BatchDto[];
  selectedId: string | null;
  onOpen: (batch: BatchDto) => void;
  onDelete: (batch: BatchDto) => void;
}

/** The batches as a table (768 px and up): a row opens its batch (click, Enter or Space). */
export function BatchTable({ batches: list, selectedId, onOpen, onDelete }: BatchTableProps) {
  function onRowKey(event: KeyboardEvent, batch: BatchDto) {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(batch);
    }
  }

  return (
    <TableContainer sx={{ maxHeight: 360 }}>
      <Table size="small" stickyHeader aria-label="Transaction batches">
        <TableHead>
          <TableRow>
            <TableCell>Batch ID</TableCell>
            <TableCell>Transactions</TableCell>
            <TableCell>Upload Date</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Account / file</TableCell>
            <TableCell align="right">Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {list.map((batch) => (
            <TableRow
              key={batch.batchId}
              hover
              selected={selectedId === batch.batchId}
              tabIndex={0}
              aria-selected={selectedId === batch.batchId}
              onClick={() => onOpen(batch)}
              onKeyDown={(e) => onRowKey(e, batch)}
              sx={{ cursor: 'pointer' }}
            >
              <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }} title={batch.batchId}>
                {batch.batchId.slice(0, 8)}
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{`${batch.transactionCount} txns`}</TableCell>
              <TableCell>{formatDateTime(batch.uploadDate)}</TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' }, overflowWrap: 'break-word' }}>
                {[batch.account, batch.fileName].filter(Boolean).join(' / ')}
              </TableCell>
              <TableCell align="right">
                <Button
                  size="small"
                  color="error"
                  // error.dark keeps AA contrast on the tinted background of a selected row.
                  sx={{ color: 'error.dark', whiteSpace: 'nowrap' }}
                  onClick={(e) => {
                    e.stopPropagation();
                    onDelete(batch);
                  }}
                  aria-label={`Delete Batch ${batch.batchId.slice(0, 8)}`}
                >
                  Delete Batch
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
