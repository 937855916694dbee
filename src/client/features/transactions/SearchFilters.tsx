import {
  Autocomplete,
  Box,
  Button,
  MenuItem,
  Paper,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
} from '@mui/material';
import type { SubmitEvent } from 'react';
import { DATE_PRESETS, type DatePreset } from '../../../shared/dates/presets';
import { MoneyField } from '../../components/MoneyField';
import { AMOUNT_BOUNDS_HELP, type SearchForm } from './searchForm';

interface SearchFiltersProps {
  id?: string;
  form: SearchForm;
  error: { field: keyof SearchForm; message: string } | null;
  categoryOptions: string[];
  accountNames: string[];
  searching: boolean;
  /** Folds the form into its summary line; absent while there is nothing to summarise. */
  onHide?: () => void;
  /** The preset the dates match, if any. */
  preset: DatePreset | null;
  onPreset: (preset: DatePreset) => void;
  onChange: (patch: Partial<SearchForm>) => void;
  onSearch: () => void;
  onClear: () => void;
}

/** The Transaction Search filter form. */
export function SearchFilters(props: SearchFiltersProps) {
  const { form, error, onChange, searching } = props;
  const fieldError = (field: keyof SearchForm) => (error?.field === field ? error.message : undefined);

  function submit(event: SubmitEvent) {
    event.preventDefault();
    if (form.startDate && form.endDate && !searching) props.onSearch();
  }

  return (
    <Paper
      id={props.id}
      component="form"
      onSubmit={submit}
      noValidate
      aria-label="Search filters"
      sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}
    >
      <PresetButtons preset={props.preset} onPreset={props.onPreset} />
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
        }}
      >
        <DateFields form={form} fieldError={fieldError} onChange={onChange} />
        <Autocomplete
          multiple
          options={props.categoryOptions}
          value={form.categories}
          onChange={(_e, value) => onChange({ categories: value })}
          filterSelectedOptions
          sx={{ gridColumn: { sm: 'span 2' } }}
          renderInput={(params) => <TextField {...params} label="Categories" />}
        />
        <TextField
          select
          label="Category source"
          value={form.categorySource}
          onChange={(e) => onChange({ categorySource: e.target.value })}
          helperText="Suggested: categories learned from your history, to review"
        >
          <MenuItem value="">
            <em>Any</em>
          </MenuItem>
          <MenuItem value="suggested">Suggested</MenuItem>
        </TextField>
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
        <TextField
          label="Description"
          value={form.description}
          onChange={(e) => onChange({ description: e.target.value })}
        />
        <AmountFields form={form} fieldError={fieldError} onChange={onChange} />
      </Box>
      <FormButtons
        canSearch={Boolean(form.startDate && form.endDate)}
        searching={searching}
        onClear={props.onClear}
        onHide={props.onHide}
      />
    </Paper>
  );
}

interface FieldGroupProps {
  form: SearchForm;
  fieldError: (field: keyof SearchForm) => string | undefined;
  onChange: (patch: Partial<SearchForm>) => void;
}

/** The date range: both dates are required before a search runs. */
function DateFields({ form, fieldError, onChange }: FieldGroupProps) {
  return (
    <>
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
    </>
  );
}

/** The amount bounds (compared by size, see AMOUNT_BOUNDS_HELP). */
function AmountFields({ form, fieldError, onChange }: FieldGroupProps) {
  return (
    <>
      <MoneyField
        label="Min Amount"
        value={form.minAmount}
        onChange={(minAmount) => onChange({ minAmount })}
        error={fieldError('minAmount')}
        helperText={AMOUNT_BOUNDS_HELP}
      />
      <MoneyField
        label="Max Amount"
        value={form.maxAmount}
        onChange={(maxAmount) => onChange({ maxAmount })}
        error={fieldError('maxAmount')}
        helperText={AMOUNT_BOUNDS_HELP}
      />
    </>
  );
}

/** The date presets: one click sets both dates (the search then runs at once). */
function PresetButtons({ preset, onPreset }: { preset: DatePreset | null; onPreset: (preset: DatePreset) => void }) {
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      color="primary"
      aria-label="Date range"
      value={preset}
      onChange={(_e, chosen: DatePreset | null) => chosen && onPreset(chosen)}
      sx={{
        mb: 2,
        flexWrap: 'wrap',
        gap: 0.75,
        // Separate buttons, so a wrapped row still looks right on a phone.
        '&& .MuiToggleButtonGroup-grouped': { border: 1, borderColor: 'divider', borderRadius: 1, m: 0 },
        '&& .MuiToggleButtonGroup-grouped.Mui-selected': { borderColor: 'primary.main' },
      }}
    >
      {DATE_PRESETS.map((option) => (
        <ToggleButton key={option} value={option} sx={{ textTransform: 'none' }}>
          {option}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

interface FormButtonsProps {
  canSearch: boolean;
  searching: boolean;
  onClear: () => void;
  onHide?: () => void;
}

function FormButtons({ canSearch, searching, onClear, onHide }: FormButtonsProps) {
  return (
    <Stack direction="row" sx={{ mt: 2, flexWrap: 'wrap', gap: 1 }}>
      <Button type="submit" variant="contained" disabled={!canSearch || searching}>
        {searching ? 'Searching...' : 'Search'}
      </Button>
      <Button variant="outlined" onClick={onClear}>
        Clear Filters
      </Button>
      {onHide && (
        <Button onClick={onHide} sx={{ ml: 'auto' }}>
          Hide filters
        </Button>
      )}
    </Stack>
  );
}
