import { DialogContentText, MenuItem, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import type { CategoryDto, CategoryUsage } from '../../../shared/schemas/categories';
import { FormDialog } from '../../components/FormDialog';
import { serverMessage, trpc } from '../../lib/trpc';

interface CategoryMoveDialogProps {
  mode: 'merge' | 'delete';
  category: CategoryDto;
  /** The categories it may be merged into (every other one). */
  others: readonly CategoryDto[];
  onClose: () => void;
  onDone: (message: string) => void;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "12 transactions and 1 rule", or null when nothing refers to the category. */
export function usageText(usage: CategoryUsage): string | null {
  const parts = [
    usage.transactions > 0 ? plural(usage.transactions, 'transaction') : null,
    usage.rules > 0 ? plural(usage.rules, 'rule') : null,
    usage.lineItems > 0 ? plural(usage.lineItems, 'budget line item') : null,
    usage.envelopes > 0 ? plural(usage.envelopes, 'envelope') : null,
    usage.schedules > 0 ? plural(usage.schedules, 'schedule') : null,
    usage.planMonths > 0 ? plural(usage.planMonths, 'month of the plan', 'months of the plan') : null,
  ].filter((part): part is string => part !== null);
  const last = parts.pop();
  if (last === undefined) return null;
  return parts.length === 0 ? last : `${parts.join(', ')} and ${last}`;
}

/**
 * Merge a category into another, or delete it (moving what uses it to another first): the
 * confirmation says how many transactions move, read from the server before anything changes.
 */
export function CategoryMoveDialog({ mode, category, others, onClose, onDone }: CategoryMoveDialogProps) {
  const [into, setInto] = useState<number | ''>('');
  const [error, setError] = useState('');
  const usage = trpc.categories.usage.useQuery({ id: category.id });
  const utils = trpc.useUtils();
  const merge = trpc.categories.merge.useMutation();
  const remove = trpc.categories.delete.useMutation();
  const used = usage.data ? usageText(usage.data) : null;
  const needsTarget = mode === 'merge' || used !== null;
  const target = others.find((other) => other.id === into);

  async function confirm() {
    setError('');
    if (needsTarget && !target) {
      setError('Choose the category to move them to');
      return;
    }
    try {
      const message =
        mode === 'merge' && target
          ? `'${category.name}' merged into '${(await merge.mutateAsync({ id: category.id, into: target.id })).category.name}'`
          : (await remove.mutateAsync({ id: category.id, reassignTo: target?.id })).message;
      await utils.invalidate();
      onDone(message);
    } catch (failure) {
      setError(serverMessage(failure, `Failed to ${mode} the category`));
    }
  }

  return (
    <FormDialog
      title={mode === 'merge' ? `Merge '${category.name}'` : `Delete '${category.name}'`}
      error={error || (usage.isError ? 'Failed to count what uses this category' : null)}
      mutation={[merge, remove]}
      busy={usage.isPending}
      onSubmit={() => void confirm()}
      onClose={onClose}
      submitLabel={mode === 'merge' ? 'Merge' : 'Delete'}
      destructive
      maxWidth="xs"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <MoveSummary mode={mode} category={category} used={used} target={target} loading={usage.isPending} />
        {needsTarget && (
          <TextField
            select
            label={mode === 'merge' ? 'Merge into' : 'Move them to'}
            value={into}
            onChange={(e) => setInto(Number(e.target.value))}
          >
            {others.map((other) => (
              <MenuItem key={other.id} value={other.id}>
                {other.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Stack>
    </FormDialog>
  );
}

interface MoveSummaryProps {
  mode: 'merge' | 'delete';
  category: CategoryDto;
  used: string | null;
  target: CategoryDto | undefined;
  loading: boolean;
}

function MoveSummary({ mode, category, used, target, loading }: MoveSummaryProps) {
  if (loading) return <DialogContentText>Counting what uses &apos;{category.name}&apos;...</DialogContentText>;
  const where = target ? `'${target.name}'` : 'the category you choose';
  const text =
    used === null
      ? mode === 'merge'
        ? `Nothing uses '${category.name}'; it will be removed.`
        : `Nothing uses '${category.name}'. Delete it?`
      : `${used} will move from '${category.name}' to ${where}, and '${category.name}' will be removed.`;
  return <DialogContentText aria-live="polite">{text}</DialogContentText>;
}
