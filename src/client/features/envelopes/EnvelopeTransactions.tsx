import { Box, Button, Paper, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import type { EnvelopeDto } from '../../../shared/schemas/envelopes';
import { TransactionTable } from '../../components/transactions/TransactionTable';
import { ConvertedNote } from '../../components/ConvertedNote';
import { EnvelopeTotal } from './EnvelopeCard';

interface EnvelopeTransactionsProps {
  envelope: EnvelopeDto;
  loading: boolean;
  onClose: () => void;
}

/** The selected envelope's transactions, below the grid, in the shared transaction table. */
export function EnvelopeTransactions({ envelope, loading, onClose }: EnvelopeTransactionsProps) {
  const sectionRef = useRef<HTMLElement>(null);
  const headingId = `envelope-${envelope.id}-transactions`;

  // Bring the section into view when another envelope is picked (the grid may be long);
  // scrollMarginTop keeps its top clear of the sticky navigation bar.
  useEffect(() => {
    sectionRef.current?.scrollIntoView({ block: 'nearest' });
  }, [envelope.id]);

  return (
    <Paper
      component="section"
      ref={sectionRef}
      aria-labelledby={headingId}
      sx={{ mt: 3, p: { xs: 1.5, sm: 2 }, borderTop: `4px solid ${envelope.color}`, scrollMarginTop: '80px' }}
    >
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 1,
          mb: 1.5,
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography id={headingId} component="h2" variant="h2" sx={{ overflowWrap: 'break-word' }}>
            Transactions in {envelope.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {envelope.transactionCount === 1 ? '1 transaction' : `${envelope.transactionCount} transactions`}, total
            spent <EnvelopeTotal cents={envelope.total} currency={envelope.currency} />
          </Typography>
          <ConvertedNote currency={envelope.currency} noRate={envelope.noRate} />
        </Box>
        <Button variant="outlined" onClick={onClose}>
          Close
        </Button>
      </Box>
      <TransactionTable
        transactions={envelope.transactions}
        loading={loading}
        emptyText="No Transactions"
        maxHeight={480}
        memoryKey={`envelope-${envelope.id}`}
      />
    </Paper>
  );
}
