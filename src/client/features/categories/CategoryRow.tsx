import { Button, Chip, ListItem, ListItemText, Stack } from '@mui/material';
import type { CategoryDto } from '../../../shared/schemas/categories';

interface CategoryRowProps {
  category: CategoryDto;
  onAction: (action: 'edit' | 'merge' | 'delete') => void;
}

/** One category: its name, kind and whether it is hidden, and what can be done with it. */
export function CategoryRow({ category, onAction }: CategoryRowProps) {
  return (
    <ListItem divider sx={{ flexWrap: 'wrap', gap: 1 }}>
      <ListItemText primary={category.name} sx={{ minWidth: 160 }} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip size="small" label={category.kind === 'income' ? 'Income' : 'Expense'} variant="outlined" />
        {category.hidden && <Chip size="small" label="Hidden" />}
        <Button size="small" onClick={() => onAction('edit')} aria-label={`Edit ${category.name}`}>
          Edit
        </Button>
        <Button size="small" onClick={() => onAction('merge')} aria-label={`Merge ${category.name}`}>
          Merge
        </Button>
        <Button size="small" color="error" onClick={() => onAction('delete')} aria-label={`Delete ${category.name}`}>
          Delete
        </Button>
      </Stack>
    </ListItem>
  );
}
