import { Alert, Box, Button, List, Paper, Stack, TextField, Typography } from '@mui/material';
import { useMemo, useState, type SubmitEvent } from 'react';
import { isReservedCategoryName, reservedCategoryMessage } from '../../../shared/categories';
import { localIsoDate } from '../../../shared/dates/calendar';
import type { CategoryDto } from '../../../shared/schemas/categories';
import { ListStatus } from '../../components/ListStatus';
import { Notice, useNotice } from '../../components/Notice';
import { serverMessage, trpc } from '../../lib/trpc';
import { CategoryEditDialog } from './CategoryEditDialog';
import { CategoryMoveDialog } from './CategoryMoveDialog';
import { CategoryRow } from './CategoryRow';

/** The dialog open on the screen, with the category it acts on. */
type Open = { kind: 'edit' | 'merge' | 'delete'; category: CategoryDto } | null;

/**
 * Categories (/categories): the user's categories sorted by name, a form to add one, and for each
 * one edit (name, kind, hidden, rollover, target), merge and delete.
 */
export function CategoriesScreen() {
  const [open, setOpen] = useState<Open>(null);
  const [notice, showNotice, clearNotice] = useNotice();
  const list = trpc.categories.list.useQuery();
  const sorted = useMemo(
    () => [...(list.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })),
    [list.data],
  );
  const [thisMonth] = useState(() => localIsoDate(new Date()).slice(0, 7));
  const done = (message: string) => {
    setOpen(null);
    showNotice(message);
  };

  return (
    <Box sx={{ maxWidth: 720 }}>
      <Typography variant="h1" gutterBottom>
        Categories
      </Typography>
      <AddCategoryForm onAdded={(created) => showNotice(`Category '${created.name}' added`)} />
      <Paper>
        <ListStatus
          query={list}
          empty={sorted.length === 0}
          loadingLabel="Loading categories"
          errorText="Failed to fetch categories"
          emptyText="No categories yet. Add one above, or import transactions with categories."
        />
        {sorted.length > 0 && (
          <List aria-label="Categories" dense>
            {sorted.map((category) => (
              <CategoryRow key={category.id} category={category} onAction={(kind) => setOpen({ kind, category })} />
            ))}
          </List>
        )}
      </Paper>
      {open?.kind === 'edit' && (
        <CategoryEditDialog
          category={open.category}
          thisMonth={thisMonth}
          onClose={() => setOpen(null)}
          onSaved={(saved) => done(`Category '${saved.name}' saved`)}
        />
      )}
      {(open?.kind === 'merge' || open?.kind === 'delete') && (
        <CategoryMoveDialog
          mode={open.kind}
          category={open.category}
          others={sorted.filter((other) => other.id !== open.category.id)}
          onClose={() => setOpen(null)}
          onDone={done}
        />
      )}
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}

function AddCategoryForm({ onAdded }: { onAdded: (created: CategoryDto) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const utils = trpc.useUtils();
  const create = trpc.categories.create.useMutation();

  async function add(event: SubmitEvent) {
    event.preventDefault();
    setError('');
    const trimmed = name.trim();
    if (!trimmed) {
      setError('Category name is required');
      return;
    }
    if (isReservedCategoryName(trimmed)) {
      setError(reservedCategoryMessage(trimmed));
      return;
    }
    try {
      const created = await create.mutateAsync({ name: trimmed });
      setName('');
      await utils.categories.list.invalidate();
      onAdded(created);
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to add category'));
    }
  }

  return (
    <Paper component="form" onSubmit={(event) => void add(event)} noValidate sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          label="Add a New Category"
          name="category"
          fullWidth
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(error)}
          autoComplete="off"
        />
        <Button
          type="submit"
          variant="contained"
          disabled={create.isPending}
          sx={{ flexShrink: 0, minWidth: 96, height: { sm: 40 } }}
        >
          {create.isPending ? 'Adding...' : 'Add'}
        </Button>
      </Stack>
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
    </Paper>
  );
}
