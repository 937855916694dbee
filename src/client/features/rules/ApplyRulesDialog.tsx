import {
  Checkbox,
  FormControlLabel,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import type { ApplyRulesResult, RuleDto } from '../../../shared/rules';
import { FormDialog } from '../../components/FormDialog';
import { Amount } from '../../components/transactions/Amount';
import { serverMessage, trpc } from '../../lib/trpc';

interface ApplyRulesDialogProps {
  rules: readonly RuleDto[];
  onClose: () => void;
  onApplied: (result: ApplyRulesResult) => void;
}

/** "Apply to existing transactions": a dry run's list of changes first, then the same call for real. */
export function ApplyRulesDialog({ rules, onClose, onApplied }: ApplyRulesDialogProps) {
  const [onlyUncategorized, setOnlyUncategorized] = useState(true);
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [error, setError] = useState('');
  const utils = trpc.useUtils();
  const apply = trpc.rules.applyToTransactions.useMutation();
  const [preview, setPreview] = useState<ApplyRulesResult | null>(null);
  const nameOf = (id: number) => rules.find((r) => r.id === id)?.name ?? `#${id}`;
  const input = { onlyUncategorized, ...(startDate ? { startDate } : {}), ...(endDate ? { endDate } : {}) };

  async function run(dryRun: boolean) {
    setError('');
    try {
      const result = await apply.mutateAsync({ ...input, dryRun });
      if (dryRun) {
        setPreview(result);
        return;
      }
      await Promise.all([utils.transactions.invalidate(), utils.categories.list.invalidate()]);
      onApplied(result);
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to apply rules'));
    }
  }

  const changeOptions = () => setPreview(null);
  return (
    <FormDialog
      title="Apply rules to existing transactions"
      error={error}
      mutation={apply}
      onSubmit={() => run(preview === null)}
      onClose={onClose}
      submitLabel={preview === null ? 'Preview changes' : `Apply ${preview.changed} changes`}
      busyLabel={preview === null ? 'Previewing…' : 'Applying…'}
      canSubmit={preview === null || preview.changed > 0}
      maxWidth="md"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField
            label="From (optional)"
            type="date"
            value={startDate}
            onChange={(e) => {
              setStartDate(e.target.value);
              changeOptions();
            }}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="To (optional)"
            type="date"
            value={endDate}
            onChange={(e) => {
              setEndDate(e.target.value);
              changeOptions();
            }}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Stack>
        <FormControlLabel
          control={
            <Checkbox
              checked={onlyUncategorized}
              onChange={(e) => {
                setOnlyUncategorized(e.target.checked);
                changeOptions();
              }}
            />
          }
          label="Only transactions without a category"
        />
        {preview && <DryRun preview={preview} nameOf={nameOf} />}
      </Stack>
    </FormDialog>
  );
}

const FIELD_NAMES: Record<ApplyRulesResult['changes'][number]['field'], string> = {
  category: 'Category',
  type: 'Type',
  description: 'Description',
};

/** What the dry run found: a sentence, then the list of changes it would make. */
function DryRun({ preview, nameOf }: { preview: ApplyRulesResult; nameOf: (ruleId: number) => string }) {
  return (
    <>
      <Typography role="status">
        {preview.changed === 0
          ? `Rules match ${preview.matched} transactions; nothing would change.`
          : `${preview.changed} of ${preview.matched} matching transactions would change${preview.truncated ? ` (the first ${preview.changes.length} changes are listed)` : ''}:`}
      </Typography>
      {preview.changes.length > 0 && (
        <TableContainer
          sx={{ maxHeight: 320, border: 1, borderColor: 'divider', borderRadius: 1 }}
          tabIndex={0}
          aria-label="Changes to make"
        >
          <Table size="small" stickyHeader aria-label="Changes the rules would make">
            <TableHead>
              <TableRow>
                <TableCell>Date</TableCell>
                <TableCell>Description</TableCell>
                <TableCell align="right">Amount</TableCell>
                <TableCell>Change</TableCell>
                <TableCell>Rule</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {preview.changes.map((change) => (
                <TableRow key={`${change.id}-${change.field}`}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{change.postDate}</TableCell>
                  <TableCell>{change.description}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Amount cents={change.amount} />
                  </TableCell>
                  <TableCell>{`${FIELD_NAMES[change.field]}: ${change.from ?? '(none)'} → ${change.to}`}</TableCell>
                  <TableCell>{nameOf(change.ruleId)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </>
  );
}
