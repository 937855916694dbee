import { Autocomplete, Box, Button, MenuItem, Paper, Stack, TextField } from '@mui/material';
import type { FormEvent } from 'react';
import type { SearchForm } from './searchForm';

interface SearchFiltersProps {
  form: SearchForm;
  error: { field: keyof SearchForm; message: string } | null;
  categoryOptions: string[];
  accountNames: string[];
  searching: boolean;
  fixing: boolean;
  onChange(patch: Partial<SearchForm>): void;
  onSearch(): void;
  onClear(): void;
  onFixSplitStatus(): void;
}

/** The Transaction Search filter form (SPEC: Transaction Search). */
export function SearchFilters(props: SearchFiltersProps) {
  const { form, error, onChange, searching } = props;
  const fieldError = (field: keyof SearchForm) => (error?.field === field ? error.message : undefined);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (form.startDate && form.endDate && !searching) props.onSearch();
  }

  return (
    <Paper component="form" onSubmit={submit} noValidate aria-label="Search filters" sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
        }}
      >
        <TextField
          label="Start Date"
          type="date"
          required
          value={form.startDate}
          onChange={(e) => onChange({ startDate: e.target.value })}
          error={Boolean(fieldError('startDate'))}
          helperText={fieldError('startDate')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          label="End Date"
          type="date"
          required
          value={form.endDate}
          onChange={(e) => onChange({ endDate: e.target.value })}
          error={Boolean(fieldError('endDate'))}
          helperText={fieldError('endDate')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Autocomplete
          multiple
          options={props.categoryOptions}
          value={form.categories}
          onChange={(_e, value) => onChange({ categories: value })}
          filterSelectedOptions
          sx={{ gridColumn: { sm: 'span 2' } }}
          renderInput={(params) => <TextField {...params} label="Categories" />}
        />
        <TextField select label="Account" value={form.account} onChange={(e) => onChange({ account: e.target.value })}>
          <MenuItem value="">
            <em>All accounts</em>
          </MenuItem>
          {props.accountNames.map((name) => (
            <MenuItem key={name} value={name}>
              {name}
            </MenuItem>
          ))}
        </TextField>
        <TextField label="Description" value={form.description} onChange={(e) => onChange({ description: e.target.value })} />
        <TextField
          label="Min Amount"
          type="number"
          value={form.minAmount}
          onChange={(e) => onChange({ minAmount: e.target.value })}
          error={Boolean(fieldError('minAmount'))}
          helperText={fieldError('minAmount')}
          slotProps={{ htmlInput: { step: 0.01, inputMode: 'decimal' } }}
        />
        <TextField
          label="Max Amount"
          type="number"
          value={form.maxAmount}
          onChange={(e) => onChange({ maxAmount: e.target.value })}
          error={Boolean(fieldError('maxAmount'))}
          helperText={fieldError('maxAmount')}
          slotProps={{ htmlInput: { step: 0.01, inputMode: 'decimal' } }}
        />
      </Box>
      <Stack direction="row" sx={{ mt: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button type="submit" variant="contained" disabled={!form.startDate || !form.endDate || searching}>
          {searching ? 'Searching...' : 'Search'}
        </Button>
        <Button variant="outlined" onClick={props.onClear}>
          Clear Filters
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <Button variant="outlined" onClick={props.onFixSplitStatus} disabled={props.fixing}>
          Fix Split Status
        </Button>
      </Stack>
    </Paper>
  );
}
