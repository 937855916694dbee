import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { BudgetDto, LineItemDto } from '../../../shared/schemas/budgets';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Notice, useNotice } from '../../components/Notice';
import { ButtonLink } from '../../components/RouterLinks';
import { recallFromEntry, rememberInEntry } from '../../lib/entryMemory';
import { trpc } from '../../lib/trpc';
import { BudgetCard } from './BudgetCard';
import './routerState';
import { SelectedBudget } from './SelectedBudget';
import { useBudgetsWithLineItems } from './useBudgets';

export const DELETE_BUDGET_ERROR = 'Failed to delete budget. Please try again.';

/**
 * Budgets (/): a card per budget with Edit Budget, Copy Budget and Delete; selecting a card
 * shows the 'Selected Budget' section (overview panel and transaction table).
 */
export function BudgetsScreen() {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const budgets = useBudgetsWithLineItems();
  const remove = trpc.budgets.delete.useMutation();
  // `round` remounts the selected section when a card is pressed again: reload, filters reset.
  // Kept in the history entry: Back from Edit Transaction shows the same budget again.
  const [selection, setSelection] = useState<{ id: number; round: number } | null>(() => {
    const id = recallFromEntry<number>('budgets.selected');
    return typeof id === 'number' ? { id, round: 0 } : null;
  });
  const [deleting, setDeleting] = useState<BudgetDto | null>(null);
  // Kept after the dialog closes so its text does not change while it fades out.
  const [deleteName, setDeleteName] = useState('');
  const [deleteError, setDeleteError] = useState('');
  const [notice, showNotice, clearNotice] = useNotice();

  const selected = selection ? budgets.rows.find((row) => row.budget.id === selection.id) : undefined;

  function select(id: number) {
    rememberInEntry('budgets.selected', id);
    setSelection((current) => ({ id, round: (current?.round ?? 0) + 1 }));
  }

  function edit(budget: BudgetDto, lineItems: LineItemDto[]) {
    void navigate({ to: '/create-budget', state: { budget, lineItems } });
  }

  function copy(lineItems: LineItemDto[]) {
    void navigate({ to: '/create-budget', state: { lineItems } });
  }

  async function confirmDelete() {
    if (!deleting) return;
    const target = deleting;
    setDeleteError('');
    try {
      await remove.mutateAsync({ id: target.id });
      if (selection?.id === target.id) {
        rememberInEntry('budgets.selected', null);
        setSelection(null);
      }
      await utils.budgets.invalidate();
      showNotice(`Budget '${target.name}' deleted`);
    } catch (failure) {
      console.warn('Deleting the budget failed', failure);
      setDeleteError(DELETE_BUDGET_ERROR);
    } finally {
      setDeleting(null);
    }
  }

  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Typography variant="h1">Budgets</Typography>
        <ButtonLink to="/create-budget" variant="contained">
          Create Budget
        </ButtonLink>
      </Stack>
      {budgets.error && (
        <Alert
          severity="error"
          role="alert"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void budgets.retry()}>
              Retry
            </Button>
          }
        >
          {budgets.error}
        </Alert>
      )}
      {deleteError && (
        <Alert severity="error" role="alert" onClose={() => setDeleteError('')} sx={{ mb: 2 }}>
          {deleteError}
        </Alert>
      )}
      {budgets.loading && <Typography color="text.secondary">Loading budgets...</Typography>}
      {budgets.ready && budgets.rows.length === 0 && <Typography color="text.secondary">No budgets found.</Typography>}
      {budgets.ready && budgets.rows.length > 0 && (
        <Box
          component="section"
          aria-label="Budget list"
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))', xl: 'repeat(4, minmax(0, 1fr))' },
          }}
        >
          {budgets.rows.map(({ budget, lineItems }) => (
            <BudgetCard
              key={budget.id}
              budget={budget}
              lineItems={lineItems}
              selected={selection?.id === budget.id}
              onSelect={() => select(budget.id)}
              onEdit={() => edit(budget, lineItems)}
              onCopy={() => copy(lineItems)}
              onDelete={() => {
                setDeleteError('');
                setDeleting(budget);
                setDeleteName(budget.name);
              }}
            />
          ))}
        </Box>
      )}
      {budgets.ready && selected && selection && (
        <SelectedBudget key={`${selection.id}-${selection.round}`} budget={selected.budget} lineItems={selected.lineItems} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Budget"
        message={`Delete budget '${deleteName}' and its line items?`}
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}
