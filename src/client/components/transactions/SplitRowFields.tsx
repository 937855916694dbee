import { Autocomplete, Box, Button, TextField } from '@mui/material';
import { memo } from 'react';
import { MoneyField } from '../MoneyField';
import type { SplitDraftRow } from './splitDraft';

interface SplitRowFieldsProps {
  row: SplitDraftRow;
  index: number;
  categoryNames: readonly string[];
  parentDescription: string;
  /** The parent's currency: amounts are read in its decimals. */
  currency: string | null;
  canRemove: boolean;
  /** A message for the Category field (a reserved name). */
  categoryError?: string;
  onChange: (key: number, patch: Partial<SplitDraftRow>) => void;
  onRemove: (key: number) => void;
}

/** One part of a split: Amount (its size), Category, Description, Split Note and Remove. */
export const SplitRowFields = memo(function SplitRowFields(props: SplitRowFieldsProps) {
  const { row, index, onChange } = props;
  return (
    <Box
      role="group"
      aria-label={`Split ${index + 1}`}
      data-split-part={index}
      sx={{
        display: 'grid',
        gap: 1,
        gridTemplateColumns: { xs: '1fr', md: '140px minmax(160px, 1fr) minmax(160px, 1fr) minmax(140px, 1fr) auto' },
        alignItems: 'start',
        pb: { xs: 2, md: 0 },
        borderBottom: { xs: 1, md: 0 },
        borderColor: 'divider',
      }}
    >
      <MoneyField
        label="Amount"
        unsigned
        currency={props.currency}
        value={row.amount}
        onChange={(amount) => onChange(row.key, { amount })}
      />
      <Autocomplete
        freeSolo
        options={props.categoryNames}
        inputValue={row.category}
        onInputChange={(_e, category) => onChange(row.key, { category })}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Category"
            error={Boolean(props.categoryError)}
            helperText={props.categoryError}
          />
        )}
      />
      <TextField
        label="Description"
        value={row.description}
        placeholder={props.parentDescription}
        onChange={(e) => onChange(row.key, { description: e.target.value })}
      />
      <TextField
        label="Split Note"
        value={row.splitNote}
        onChange={(e) => onChange(row.key, { splitNote: e.target.value })}
      />
      <Box sx={{ minWidth: 80 }}>
        {props.canRemove && (
          <Button color="error" onClick={() => props.onRemove(row.key)} aria-label={`Remove split ${index + 1}`}>
            Remove
          </Button>
        )}
      </Box>
    </Box>
  );
});
