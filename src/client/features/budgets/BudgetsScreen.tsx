import { Alert, Box, Button, Paper, Stack, Typography } from '@mui/material';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { BudgetDto, LineItemDto } from '../../../shared/schemas/budgets';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Notice, useNotice } from '../../components/Notice';
import { ButtonLink } from '../../components/RouterLinks';
import { trpc } from '../../lib/trpc';
import { BudgetCard } from './BudgetCard';
import { SelectedBudget } from './SelectedBudget';
import { useBudgetsWithLineItems } from './useBudgets';

const route = getRouteApi('/_auth/');

export const DELETE_BUDGET_ERROR = 'Failed to delete budget. Please try again.';

/** Delete on a card: the budget asked about, its deletion once confirmed, and a refusal to show. */
function useBudgetDeletion(onDeleted: (budget: BudgetDto) => void) {
  const utils = trpc.useUtils();
  const remove = trpc.budgets.delete.useMutation();
  const [deleting, setDeleting] = useState<BudgetDto | null>(null);
  // Kept after the dialog closes so its text does not change while it fades out.
  const [name, setName] = useState('');
  const [error, setError] = useState('');

  function ask(budget: BudgetDto) {
    setError('');
    setDeleting(budget);
    setName(budget.name);
  }

  async function confirm() {
    if (!deleting) return;
    const target = deleting;
    setError('');
    try {
      await remove.mutateAsync({ id: target.id });
      onDeleted(target);
      await utils.budgets.invalidate();
    } catch (failure) {
      console.warn('Deleting the budget failed', failure);
      setError(DELETE_BUDGET_ERROR);
    } finally {
      setDeleting(null);
    }
  }
  return {
    deleting,
    name,
    error,
    clearError: () => setError(''),
    ask,
    confirm,
    cancel: () => setDeleting(null),
    remove,
  };
}

/**
 * Budgets (/): a card per budget with Edit Budget, Copy Budget and Delete; selecting a card
 * shows the 'Selected Budget' section (overview panel and transaction table).
 */
export function BudgetsScreen() {
  const navigate = useNavigate();
  const budgets = useBudgetsWithLineItems();
  // The selected budget lives in the URL (?budget=<id>): a reload, a shared link and Back show it again.
  const selectedId = route.useSearch({ select: (search) => search.budget ?? null });
  // `round` remounts the selected section when a card is pressed again: reload, filters reset.
  const [round, setRound] = useState(0);
  const selection = selectedId === null ? null : { id: selectedId, round };
  const [notice, showNotice, clearNotice] = useNotice();
  const selected = selection ? budgets.rows.find((row) => row.budget.id === selection.id) : undefined;

  function select(id: number | null) {
    setRound((current) => current + 1);
    void navigate({ to: '/', search: id === null ? {} : { budget: id }, replace: true });
  }
  const deletion = useBudgetDeletion((budget) => {
    if (selection?.id === budget.id) select(null);
    showNotice(`Budget '${budget.name}' deleted`);
  });

  return (
    <Box>
      <Stack
        direction="row"
        sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 2 }}
      >
        <Typography variant="h1">Budgets</Typography>
        <ButtonLink to="/create-budget" variant="contained">
          Create Budget
        </ButtonLink>
      </Stack>
      {budgets.error && <LoadError text={budgets.error} onRetry={() => void budgets.retry()} />}
      {deletion.error && (
        <Alert severity="error" role="alert" onClose={deletion.clearError} sx={{ mb: 2 }}>
          {deletion.error}
        </Alert>
      )}
      {budgets.loading && <Typography color="text.secondary">Loading budgets...</Typography>}
      {budgets.ready && budgets.rows.length === 0 && <NoBudgets />}
      {budgets.ready && budgets.rows.length > 0 && (
        <BudgetGrid
          rows={budgets.rows}
          selectedId={selection?.id ?? null}
          onSelect={(budget) => select(budget.id)}
          onEdit={(budget) => void navigate({ to: '/budgets/$id/edit', params: { id: budget.id } })}
          onCopy={(budget) => void navigate({ to: '/create-budget', search: { copy: budget.id } })}
          onDelete={deletion.ask}
        />
      )}
      {budgets.ready && selected && selection && (
        <SelectedBudget
          key={`${selection.id}-${selection.round}`}
          budget={selected.budget}
          lineItems={selected.lineItems}
        />
      )}
      <ConfirmDialog
        open={deletion.deleting !== null}
        title="Delete Budget"
        message={`Delete budget '${deletion.name}' and its line items?`}
        confirmLabel="Delete"
        destructive
        mutation={deletion.remove}
        onConfirm={() => void deletion.confirm()}
        onCancel={deletion.cancel}
      />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}

/** The empty screen: what a budget is, and the way to make the first one. */
function NoBudgets() {
  return (
    <Paper component="section" aria-labelledby="no-budgets-heading" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 720 }}>
      <Typography id="no-budgets-heading" variant="h2" gutterBottom>
        No budgets found.
      </Typography>
      <Typography sx={{ mb: 1 }}>
        A budget is your plan for a period, such as a month: line items say how much you expect to earn and to spend
        (fixed bills, variable spending), each covering some of your categories.
      </Typography>
      <Typography sx={{ mb: 2 }}>
        Once it is saved, selecting it sets what your transactions of that period actually did beside the plan.
      </Typography>
      <ButtonLink to="/create-budget" variant="contained">
        Create your first budget
      </ButtonLink>
    </Paper>
  );
}

function LoadError({ text, onRetry }: { text: string; onRetry: () => void }) {
  return (
    <Alert
      severity="error"
      role="alert"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          Retry
        </Button>
      }
    >
      {text}
    </Alert>
  );
}

interface BudgetGridProps {
  rows: Array<{ budget: BudgetDto; lineItems: LineItemDto[] }>;
  selectedId: number | null;
  onSelect: (budget: BudgetDto) => void;
  onEdit: (budget: BudgetDto) => void;
  onCopy: (budget: BudgetDto) => void;
  onDelete: (budget: BudgetDto) => void;
}

/** A card per budget, in as many columns as fit. */
function BudgetGrid({ rows, selectedId, onSelect, onEdit, onCopy, onDelete }: BudgetGridProps) {
  return (
    <Box
      component="section"
      aria-label="Budget list"
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: {
          xs: 'minmax(0, 1fr)',
          md: 'repeat(2, minmax(0, 1fr))',
          lg: 'repeat(3, minmax(0, 1fr))',
          xl: 'repeat(4, minmax(0, 1fr))',
        },
      }}
    >
      {rows.map(({ budget, lineItems }) => (
        <BudgetCard
          key={budget.id}
          budget={budget}
          lineItems={lineItems}
          selected={selectedId === budget.id}
          onSelect={() => onSelect(budget)}
          onEdit={() => onEdit(budget)}
          onCopy={() => onCopy(budget)}
          onDelete={() => onDelete(budget)}
        />
      ))}
    </Box>
  );
}
