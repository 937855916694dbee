import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { Box, Button, IconButton, MenuItem, Paper, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { memo } from 'react';
import { lineItemTypeLabel } from '../../../shared/budget';
import { LINE_ITEM_TYPES, type LineItemType } from '../../../shared/schemas/budgets';
import { MoneyField } from '../../components/MoneyField';
import { appendCategory, splitCategories, type LineItemDraft, type LineItemErrors } from './budgetForm';
import { useHomeCurrency } from '../../lib/currency';

interface LineItemFieldsProps {
  item: LineItemDraft;
  /** 1-based position, for labels ("Line item 2"). */
  position: number;
  categoryNames: readonly string[];
  /** Lower-case category -> the other line item that has it (offered disabled in the picker). */
  takenBy?: ReadonlyMap<string, string>;
  errors?: LineItemErrors;
  disabled?: boolean;
  onChange: (key: string, patch: Partial<LineItemDraft>) => void;
  onDelete: (item: LineItemDraft) => void;
}

/** One line item of the budget form: Name, Amount, Type, Related Categories (with picker and Clear All), delete. */
export const LineItemFields = memo(function LineItemFields({
  item,
  position,
  categoryNames,
  takenBy,
  errors,
  disabled = false,
  onChange,
  onDelete,
}: LineItemFieldsProps) {
  const home = useHomeCurrency();
  const label = `Line item ${position}`;
  const set = (patch: Partial<LineItemDraft>) => onChange(item.key, patch);
  return (
    <Paper variant="outlined" role="group" aria-label={label} sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
      <LineItemHeader item={item} label={label} disabled={disabled} onDelete={onDelete} />
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          // Name on its own row up to lg (Amount and Type share the next one), then all three in a row.
          gridTemplateColumns: {
            xs: 'minmax(0, 1fr)',
            sm: 'repeat(2, minmax(0, 1fr))',
            lg: 'minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr)',
          },
        }}
      >
        <TextField
          label="Name"
          required
          sx={{ gridColumn: { sm: '1 / -1', lg: 'auto' } }}
          size="small"
          value={item.name}
          onChange={(e) => set({ name: e.target.value })}
          error={Boolean(errors?.name)}
          helperText={errors?.name}
          disabled={disabled}
          autoComplete="off"
        />
        <MoneyField
          label="Amount"
          required
          size="small"
          value={item.amount}
          onChange={(amount) => set({ amount })}
          error={errors?.amount}
          disabled={disabled}
          currency={home}
        />
        <TextField
          select
          label="Type"
          size="small"
          value={item.type}
          onChange={(e) => set({ type: e.target.value as LineItemType })}
          disabled={disabled}
        >
          {LINE_ITEM_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {lineItemTypeLabel(type)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <RelatedCategoriesFields
        item={item}
        label={label}
        categoryNames={categoryNames}
        takenBy={takenBy}
        error={errors?.relatedCategories}
        disabled={disabled}
        set={set}
      />
    </Paper>
  );
});

interface LineItemHeaderProps {
  item: LineItemDraft;
  label: string;
  disabled: boolean;
  onDelete: (item: LineItemDraft) => void;
}

/** The line item's heading (its position and name) and its delete button. */
function LineItemHeader({ item, label, disabled, onDelete }: LineItemHeaderProps) {
  return (
    <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5 }}>
      <Typography component="h3" variant="subtitle2" sx={{ minWidth: 0, overflowWrap: 'break-word' }}>
        {label}
        {item.name.trim() ? `: ${item.name.trim()}` : ''}
      </Typography>
      <Tooltip title="Delete line item">
        <span>
          <IconButton
            aria-label={`Delete ${label}`}
            onClick={() => onDelete(item)}
            disabled={disabled}
            color="error"
            size="small"
          >
            <DeleteOutlineIcon fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
    </Stack>
  );
}

interface RelatedCategoriesProps {
  item: LineItemDraft;
  label: string;
  categoryNames: readonly string[];
  takenBy?: ReadonlyMap<string, string>;
  error?: string;
  disabled: boolean;
  set: (patch: Partial<LineItemDraft>) => void;
}

/** Related Categories as text, a picker that appends one (those of other line items disabled), and Clear All. */
function RelatedCategoriesFields({
  item,
  label,
  categoryNames,
  takenBy,
  error,
  disabled,
  set,
}: RelatedCategoriesProps) {
  const chosen = new Set(splitCategories(item.relatedCategories).map((name) => name.toLowerCase()));
  const available = categoryNames.filter((name) => !chosen.has(name.toLowerCase()));
  return (
    <Box
      sx={{
        mt: 1.5,
        display: 'grid',
        gap: 1.5,
        alignItems: 'start',
        // Narrow: the text on its own row, the picker and Clear All side by side below it.
        gridTemplateColumns: { xs: 'minmax(0, 1fr) auto', md: 'minmax(0, 2fr) minmax(0, 1fr) auto' },
      }}
    >
      <TextField
        label="Related Categories"
        size="small"
        sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}
        value={item.relatedCategories}
        onChange={(e) => set({ relatedCategories: e.target.value })}
        error={Boolean(error)}
        helperText={error ?? "Comma-separated category names ('Uncategorized': transactions without one)"}
        disabled={disabled}
        autoComplete="off"
      />
      <TextField
        select
        label="Add category"
        size="small"
        value=""
        onChange={(e) => set({ relatedCategories: appendCategory(item.relatedCategories, e.target.value) })}
        disabled={disabled || available.length === 0}
        helperText={categoryNames.length === 0 ? 'No categories yet' : undefined}
      >
        {available.map((name) => {
          const owner = takenBy?.get(name.toLowerCase());
          return (
            <MenuItem key={name} value={name} disabled={Boolean(owner)}>
              {owner ? `${name} (in ${owner})` : name}
            </MenuItem>
          );
        })}
      </TextField>
      <Button
        onClick={() => set({ relatedCategories: '' })}
        disabled={disabled || item.relatedCategories === ''}
        aria-label={`Clear All categories of ${label}`}
        sx={{ justifySelf: 'start', minHeight: 40 }}
      >
        Clear All
      </Button>
    </Box>
  );
}
