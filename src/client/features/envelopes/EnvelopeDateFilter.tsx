import { Box, Button, Checkbox, FormControlLabel, Paper, TextField } from '@mui/material';
import { useRef } from 'react';
import type { DateFilter } from './envelopeForm';

interface EnvelopeDateFilterProps {
  filter: DateFilter;
  /** 'To must not be before From', shown under To. */
  error?: string;
  onChange: (filter: DateFilter) => void;
  onClear: () => void;
}

/** 'Show All Time' (on by default); when off, From and To dates and Clear Filter. */
export function EnvelopeDateFilter({ filter, error, onChange, onClear }: EnvelopeDateFilterProps) {
  const checkboxRef = useRef<HTMLInputElement>(null);
  return (
    <Paper
      role="group"
      aria-label="Date filter"
      sx={{ p: { xs: 1.5, sm: 2 }, mb: 2, display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2 }}
    >
      <FormControlLabel
        sx={{ mr: 0, minHeight: 56 }}
        control={
          <Checkbox
            slotProps={{ input: { ref: checkboxRef } }}
            checked={filter.showAllTime}
            onChange={(e) => onChange({ ...filter, showAllTime: e.target.checked })}
          />
        }
        label="Show All Time"
      />
      {!filter.showAllTime && (
        // One group, so on a narrow screen the dates and Clear Filter wrap together under the checkbox.
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'flex-start',
            gap: 2,
            flex: { xs: '1 1 100%', sm: '0 1 auto' },
          }}
        >
          <TextField
            label="From"
            type="date"
            value={filter.from}
            onChange={(e) => onChange({ ...filter, from: e.target.value })}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ width: { xs: '100%', sm: 180 } }}
          />
          <TextField
            label="To"
            type="date"
            value={filter.to}
            onChange={(e) => onChange({ ...filter, to: e.target.value })}
            error={Boolean(error)}
            helperText={error}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ width: { xs: '100%', sm: 180 } }}
          />
          <Box sx={{ display: 'flex', alignItems: 'center', minHeight: 56 }}>
            <Button
              onClick={() => {
                onClear();
                // The dates go away with the filter: keep focus on the checkbox that brings them back.
                checkboxRef.current?.focus();
              }}
            >
              Clear Filter
            </Button>
          </Box>
        </Box>
      )}
    </Paper>
  );
}
