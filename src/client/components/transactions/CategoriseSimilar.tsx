import { Alert, Button, Stack } from '@mui/material';
import type { SimilarOffer } from '../../lib/suggestions';

/** "Also set Groceries on 23 similar uncategorized transactions" / "Always (create a rule)". */
export function CategoriseSimilar({
  offer,
  busy,
  onApply,
  onRule,
  onClose,
}: {
  offer: SimilarOffer | null;
  busy: boolean;
  onApply: () => void;
  onRule: () => void;
  onClose: () => void;
}) {
  if (!offer) return null;
  const n = offer.ids.length;
  return (
    <Alert severity="info" onClose={onClose} sx={{ mb: 1 }} role="status">
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <span>
          {offer.merchant} is now {offer.category}.
        </span>
        <Button size="small" variant="contained" disabled={busy} onClick={onApply}>
          Also set {offer.category} on {n} similar uncategorized transaction{n === 1 ? '' : 's'}
        </Button>
        <Button size="small" variant="outlined" disabled={busy} onClick={onRule}>
          Always (create a rule)
        </Button>
      </Stack>
    </Alert>
  );
}
