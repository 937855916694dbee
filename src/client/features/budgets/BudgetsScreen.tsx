import { Alert, Box, Button, Stack, Typography } from '@mui/material';
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

/**
 * Budgets (/): a card per budget with Edit Budget, Copy Budget and Delete; selecting a card
 * shows the 'Selected Budget' section (overview panel and transaction table).
 */
export function BudgetsScreen() {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const budgets = useBudgetsWithLineItems();
  const remove = trpc.budgets.delete.useMutation();
  // The selected budget lives in the URL (?budget=<id>): a reload, a shared link and Back show it again.
  const selectedId = route.useSearch({ select: (search) => search.budget ?? null });
  // `round` remounts the selected section when a card is pressed again: reload, filters reset.
  const [round, setRound] = useState(0);
  const selection = selectedId === null ? null : { id: selectedId, round };
  const [deleting, setDeleting] = useState<BudgetDto | null>(null);
  // Kept after the dialog closes so its text does not change while it fades out.
  const [deleteName, setDeleteName] = useState('');
  const [deleteError, setDeleteError] = useState('');
  const [notice, showNotice, clearNotice] = useNotice();

  const selected = selection ? budgets.rows.find((row) => row.budget.id === selection.id) : undefined;

  function select(id: number | null) {
    setRound((current) => current + 1);
    void navigate({ to: '/', search: id === null ? {} : { budget: id }, replace: true });
  }

  function edit(budget: BudgetDto) {
    void navigate({ to: '/budgets/$id/edit', params: { id: budget.id } });
  }

  function copy(budget: BudgetDto) {
    void navigate({ to: '/create-budget', search: { copy: budget.id } });
  }

  async function confirmDelete() {
    if (!deleting) return;
    const target = deleting;
    setDeleteError('');
    try {
      await remove.mutateAsync({ id: target.id });
      if (selection?.id === target.id) select(null);
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
      {deleteError && (
        <Alert severity="error" role="alert" onClose={() => setDeleteError('')} sx={{ mb: 2 }}>
          {deleteError}
        </Alert>
      )}
      {budgets.loading && <Typography color="text.secondary">Loading budgets...</Typography>}
      {budgets.ready && budgets.rows.length === 0 && <Typography color="text.secondary">No budgets found.</Typography>}
      {budgets.ready && budgets.rows.length > 0 && (
        <BudgetGrid
          rows={budgets.rows}
          selectedId={selection?.id ?? null}
          onSelect={(budget) => select(budget.id)}
          onEdit={edit}
          onCopy={copy}
          onDelete={(budget) => {
            setDeleteError('');
            setDeleting(budget);
            setDeleteName(budget.name);
          }}
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
