import { Alert, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { getRouteApi, useNavigate, useRouterState } from '@tanstack/react-router';
import { useCallback, useMemo, useState, type SubmitEvent } from 'react';
import type { BudgetDto, LineItemDto } from '../../../shared/schemas/budgets';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ButtonLink } from '../../components/RouterLinks';
import { useCategoryNames } from '../../components/transactions/hooks';
import { browserLocale } from '../../lib/locale';
import { serverMessage, trpc } from '../../lib/trpc';
import {
  buildSaveInput,
  canSubmit,
  categoriesTakenByOthers,
  draftFromLineItem,
  emptyLineItem,
  sharedCategoryErrors,
  type BudgetDraft,
  type DraftErrors,
  type LineItemDraft,
} from './budgetForm';
import { LineItemFields } from './LineItemFields';
import { FETCH_BUDGETS_ERROR } from './useBudgets';
import { useHomeCurrency } from '../../lib/currency';

export const SAVE_BUDGET_ERROR = 'Failed to save the budget and line items. Please try again.';
export const DELETE_LINE_ITEM_ERROR = 'Failed to delete line item. Please try again.';

const createRoute = getRouteApi('/_auth/create-budget');
const editRoute = getRouteApi('/_auth/budgets/$id/edit');

/**
 * Create budget (/create-budget): a blank new budget, or with `?copy=<id>` (Copy Budget) a new
 * budget starting with copies of that budget's line items.
 */
export function BudgetEditorScreen() {
  const { copy } = createRoute.useSearch();
  const navigationKey = useRouterState({
    select: (state) => state.location.state.__TSR_key ?? state.location.state.key ?? '',
  });
  const copied = trpc.budgets.lineItems.useQuery({ budgetId: copy ?? 0 }, { enabled: Boolean(copy) });
  if (copy && copied.isPending) return <EditorLoading title="Create Budget" />;
  if (copy && copied.isError) return <EditorFailed title="Create Budget" onRetry={() => void copied.refetch()} />;
  // Each visit starts a fresh form.
  return (
    <BudgetForm
      key={`${navigationKey}-${copy ?? 'new'}`}
      budget={null}
      lineItems={copy ? (copied.data ?? null) : null}
    />
  );
}

/** Edit budget (/budgets/$id/edit, deep-linkable): the stored budget and its line items. */
export function EditBudgetScreen() {
  const { id } = editRoute.useParams();
  const budgets = trpc.budgets.list.useQuery();
  const budget = budgets.data?.find((row) => row.id === id);
  const items = trpc.budgets.lineItems.useQuery({ budgetId: id }, { enabled: budget !== undefined });
  if (budgets.isPending || (budget && items.isPending)) return <EditorLoading title="Edit Budget" />;
  if (budgets.isError || (budget && items.isError)) {
    return <EditorFailed title="Edit Budget" onRetry={() => void Promise.all([budgets.refetch(), items.refetch()])} />;
  }
  if (!budget) {
    return (
      <Box>
        <Typography variant="h1" gutterBottom>
          Edit Budget
        </Typography>
        <Alert severity="warning">This budget does not exist (any more).</Alert>
        <ButtonLink to="/" sx={{ mt: 2 }}>
          Back to Budgets
        </ButtonLink>
      </Box>
    );
  }
  return <BudgetForm key={`edit-${id}`} budget={budget} lineItems={items.data ?? []} />;
}

function EditorLoading({ title }: { title: string }) {
  return (
    <Box>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary">Loading budget...</Typography>
    </Box>
  );
}

function EditorFailed({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <Box>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      <Alert
        severity="error"
        role="alert"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            Retry
          </Button>
        }
      >
        {FETCH_BUDGETS_ERROR}
      </Alert>
    </Box>
  );
}

function initialDraft(budget: BudgetDto | null, lineItems: LineItemDto[] | null, home: string): BudgetDraft {
  const editing = budget !== null;
  return {
    name: budget?.name ?? '',
    startDate: budget?.startDate ?? '',
    endDate: budget?.endDate ?? '',
    lineItems: (lineItems ?? []).map((item) => draftFromLineItem(item, editing, browserLocale(), home)),
  };
}

/** The budget as typed and its errors by field; a change to a field or a line item clears that one's errors. */
function useBudgetDraft(budget: BudgetDto | null, lineItems: LineItemDto[] | null) {
  const home = useHomeCurrency();
  const [draft, setDraft] = useState<BudgetDraft>(() => initialDraft(budget, lineItems, home));
  const [errors, setErrors] = useState<DraftErrors>({ lineItems: {} });

  const setField = (field: DraftField, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const changeItem = useCallback((key: string, patch: Partial<LineItemDraft>) => {
    setDraft((current) => ({
      ...current,
      lineItems: current.lineItems.map((item) => (item.key === key ? { ...item, ...patch } : item)),
    }));
    setErrors((current) => {
      if (!current.lineItems[key]) return current;
      const { [key]: _cleared, ...next } = current.lineItems;
      return { ...current, lineItems: next };
    });
  }, []);

  const dropItem = useCallback((key: string) => {
    setDraft((current) => ({ ...current, lineItems: current.lineItems.filter((item) => item.key !== key) }));
  }, []);

  const addItem = useCallback(() => {
    setDraft((current) => ({ ...current, lineItems: [...current.lineItems, emptyLineItem()] }));
  }, []);
  return { draft, errors, setErrors, setField, changeItem, dropItem, addItem };
}

function BudgetForm({ budget, lineItems }: { budget: BudgetDto | null; lineItems: LineItemDto[] | null }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const categories = useCategoryNames();
  const save = trpc.budgets.save.useMutation();
  const home = useHomeCurrency();
  const editing = budget !== null;
  const copying = !editing && lineItems !== null && lineItems.length > 0;
  const { draft, errors, setErrors, setField, changeItem, dropItem, addItem } = useBudgetDraft(budget, lineItems);
  const [saveError, setSaveError] = useState<{ text: string; detail: string } | null>(null);

  const deletion = useLineItemDeletion(dropItem);
  const busy = save.isPending || deletion.pending;

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    if (busy) return;
    setSaveError(null);
    const built = buildSaveInput(draft, budget?.id, [], browserLocale(), home);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({ lineItems: {} });
    try {
      await save.mutateAsync(built.input);
      void utils.budgets.invalidate();
      await navigate({ to: '/' });
    } catch (failure) {
      console.warn('Saving the budget failed', failure);
      setSaveError({ text: SAVE_BUDGET_ERROR, detail: serverMessage(failure, '') });
    }
  }

  const submitLabel = editing ? 'Update Budget' : 'Save Budget';
  return (
    <Box sx={{ maxWidth: 960 }}>
      <Typography variant="h1" gutterBottom>
        {editing ? 'Edit Budget' : 'Create Budget'}
      </Typography>
      {copying && <CopyingNote count={lineItems.length} />}
      <Box component="form" onSubmit={(event) => void submit(event)} noValidate>
        <BudgetFields draft={draft} errors={errors} onChange={setField} />

        <LineItemsSection
          items={draft.lineItems}
          errors={errors}
          categories={categories}
          lineItemError={deletion.error}
          onDismissError={deletion.dismissError}
          busy={busy}
          onChange={changeItem}
          onDelete={deletion.ask}
          onAdd={addItem}
        />

        {saveError && <SaveError error={saveError} onClose={() => setSaveError(null)} />}
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={!canSubmit(draft) || busy}>
            {save.isPending ? 'Saving...' : submitLabel}
          </Button>
          <ButtonLink to="/" disabled={save.isPending}>
            Cancel
          </ButtonLink>
        </Stack>
      </Box>
      <ConfirmDialog
        open={deletion.confirming !== null}
        title="Delete Line Item"
        message={`Delete line item '${deletion.confirming?.name.trim() || 'unnamed'}' from this budget now? This cannot be undone.`}
        confirmLabel="Delete"
        destructive
        busy={deletion.pending}
        onConfirm={() => void deletion.deleteSaved()}
        onCancel={deletion.cancel}
      />
    </Box>
  );
}

type DraftField = 'name' | 'startDate' | 'endDate';

function CopyingNote({ count }: { count: number }) {
  return (
    <Alert severity="info" role="status" sx={{ mb: 2 }}>
      Copying {count} line item{count === 1 ? '' : 's'} into a new budget. Give it a name and dates.
    </Alert>
  );
}

/** Deleting a line item: a saved one on the server at once (after a confirmation); a new one just leaves the form. */
function useLineItemDeletion(dropItem: (key: string) => void) {
  const utils = trpc.useUtils();
  const removeLineItem = trpc.budgets.deleteLineItem.useMutation();
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState<LineItemDraft | null>(null);

  const ask = useCallback(
    (item: LineItemDraft) => {
      setError('');
      if (item.id !== undefined) setConfirming(item);
      else dropItem(item.key);
    },
    [dropItem],
  );

  async function deleteSaved() {
    const item = confirming;
    if (!item || item.id === undefined) return;
    try {
      await removeLineItem.mutateAsync({ id: item.id });
      dropItem(item.key);
      void utils.budgets.invalidate();
    } catch (failure) {
      console.warn('Deleting the line item failed', failure);
      setError(DELETE_LINE_ITEM_ERROR);
    } finally {
      setConfirming(null);
    }
  }

  return {
    error,
    dismissError: () => setError(''),
    confirming,
    pending: removeLineItem.isPending,
    ask,
    deleteSaved,
    cancel: () => setConfirming(null),
  };
}

function BudgetFields({
  draft,
  errors,
  onChange,
}: {
  draft: BudgetDraft;
  errors: DraftErrors;
  onChange: (field: DraftField, value: string) => void;
}) {
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr)' },
        }}
      >
        <TextField
          label="Budget Name"
          required
          value={draft.name}
          onChange={(e) => onChange('name', e.target.value)}
          error={Boolean(errors.name)}
          helperText={errors.name}
          autoComplete="off"
        />
        <TextField
          label="Start Date"
          type="date"
          required
          value={draft.startDate}
          onChange={(e) => onChange('startDate', e.target.value)}
          error={Boolean(errors.startDate)}
          helperText={errors.startDate}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="End Date"
          type="date"
          required
          value={draft.endDate}
          onChange={(e) => onChange('endDate', e.target.value)}
          error={Boolean(errors.endDate)}
          helperText={errors.endDate}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Box>
    </Paper>
  );
}

interface LineItemsSectionProps {
  items: LineItemDraft[];
  errors: DraftErrors;
  categories: ReturnType<typeof useCategoryNames>;
  lineItemError: string;
  onDismissError: () => void;
  busy: boolean;
  onChange: (key: string, patch: Partial<LineItemDraft>) => void;
  onDelete: (item: LineItemDraft) => void;
  onAdd: () => void;
}

/** The line items, each with its fields; a category related to two line items is named at once, under the later one's categories. */
function LineItemsSection(props: LineItemsSectionProps) {
  const { items, errors, categories, lineItemError, onDismissError, busy, onChange, onDelete, onAdd } = props;
  const shared = useMemo(() => sharedCategoryErrors(items), [items]);
  const taken = useMemo(() => categoriesTakenByOthers(items), [items]);
  return (
    <>
      <Typography variant="h2" gutterBottom>
        Line Items
      </Typography>
      {categories.error && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {categories.error}
        </Alert>
      )}
      {lineItemError && (
        <Alert severity="error" role="alert" onClose={onDismissError} sx={{ mb: 2 }}>
          {lineItemError}
        </Alert>
      )}
      <Stack spacing={2} sx={{ mb: 2 }}>
        {items.length === 0 && <Typography color="text.secondary">No line items yet.</Typography>}
        {items.map((item, i) => (
          <LineItemFields
            key={item.key}
            item={item}
            position={i + 1}
            categoryNames={categories.names}
            takenBy={taken[item.key]}
            errors={{ ...errors.lineItems[item.key], relatedCategories: shared[item.key] }}
            disabled={busy}
            onChange={onChange}
            onDelete={onDelete}
          />
        ))}
      </Stack>
      <Button variant="outlined" onClick={onAdd} disabled={busy} sx={{ mb: 3 }}>
        Add Line Item
      </Button>
    </>
  );
}

function SaveError({ error, onClose }: { error: { text: string; detail: string }; onClose: () => void }) {
  return (
    <Alert severity="error" role="alert" onClose={onClose} sx={{ mb: 2 }}>
      {error.text}
      {error.detail && (
        <Box component="span" sx={{ display: 'block', mt: 0.5 }}>
          {error.detail}
        </Box>
      )}
    </Alert>
  );
}
