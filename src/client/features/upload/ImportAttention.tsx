import { Alert, Button, Stack } from '@mui/material';
import type { ImportAttention } from '../../../shared/schemas/import';

interface ImportAttentionAlertsProps {
  attention: readonly ImportAttention[];
  flipAmounts: boolean;
  onFlipAmountsChange: (flip: boolean) => void;
}

/**
 * What a person must see before importing (most rows read as money in, lines that will not be
 * imported), as warnings above the rows, with Flip signs in place where flipping answers it.
 */
export function ImportAttentionAlerts({ attention, flipAmounts, onFlipAmountsChange }: ImportAttentionAlertsProps) {
  if (attention.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="import-attention">
      {attention.map((item) => (
        <Alert
          key={item.code}
          severity="warning"
          role="alert"
          action={
            item.offerFlip ? (
              <Button color="inherit" size="small" variant="outlined" onClick={() => onFlipAmountsChange(!flipAmounts)}>
                {flipAmounts ? 'Undo flip' : 'Flip signs'}
              </Button>
            ) : undefined
          }
        >
          {item.message}
        </Alert>
      ))}
    </Stack>
  );
}
