import { Alert, Box, Button, List, ListItem, ListItemText, Paper, Stack, TextField, Typography } from '@mui/material';
import { useMemo, useState, type SubmitEvent } from 'react';
import { isReservedCategoryName, reservedCategoryMessage } from '../../../shared/categories';
import { ListStatus } from '../../components/ListStatus';
import { Notice, useNotice } from '../../components/Notice';
import { serverMessage, trpc } from '../../lib/trpc';

/** Categories (/categories): the user's categories sorted by name, and a form to add one. */
export function CategoriesScreen() {
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const [notice, showNotice, clearNotice] = useNotice();
  const utils = trpc.useUtils();
  const list = trpc.categories.list.useQuery();
  const create = trpc.categories.create.useMutation();
  const sorted = useMemo(
    () => [...(list.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })),
    [list.data],
  );

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
      showNotice(`Category '${created.name}' added`);
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to add category'));
    }
  }

  return (
    <Box sx={{ maxWidth: 720 }}>
      <Typography variant="h1" gutterBottom>
        Categories
      </Typography>
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
              <ListItem key={category.id} divider>
                <ListItemText primary={category.name} />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}
