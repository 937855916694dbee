import { FormControlLabel, MenuItem, Paper, Switch, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { REPORT_PRESETS, type ReportPreset } from '../../../shared/reports';
import type { ReportSearch, ResolvedReportSearch } from './reportSearch';

interface ReportControlsProps {
  view: ResolvedReportSearch;
  accountNames: string[];
  onChange: (patch: Partial<ReportSearch>) => void;
}

/** Range presets, custom dates, the account filter and the "Show as table" toggle. */
export function ReportControls({ view, accountNames, onChange }: ReportControlsProps) {
  const custom = view.preset === 'Custom';
  const problem = custom ? view.problem : null;
  return (
    <Paper
      aria-label="Report filters"
      component="form"
      onSubmit={(e) => e.preventDefault()}
      sx={{ p: { xs: 2, sm: 3 }, mb: 3, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}
    >
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        aria-label="Report range"
        value={view.preset}
        onChange={(_e, preset: ReportPreset | null) => {
          if (!preset) return;
          // Custom starts from the range shown, so the dates are there to adjust.
          onChange(
            preset === 'Custom'
              ? { preset, startDate: view.startDate, endDate: view.endDate }
              : { preset, startDate: undefined, endDate: undefined },
          );
        }}
        sx={{ flexWrap: 'wrap' }}
      >
        {REPORT_PRESETS.map((preset) => (
          <ToggleButton key={preset} value={preset} sx={{ textTransform: 'none' }}>
            {preset}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <TextField
        label="Start Date"
        type="date"
        value={view.startDate}
        disabled={!custom}
        onChange={(e) =>
          onChange({ preset: 'Custom', startDate: e.target.value || undefined, endDate: view.endDate || undefined })
        }
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        label="End Date"
        type="date"
        value={view.endDate}
        disabled={!custom}
        error={Boolean(problem)}
        helperText={problem ?? undefined}
        onChange={(e) =>
          onChange({ preset: 'Custom', startDate: view.startDate || undefined, endDate: e.target.value || undefined })
        }
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        select
        label="Account"
        value={view.account ?? ''}
        onChange={(e) => onChange({ account: e.target.value || undefined })}
        slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
        sx={{ minWidth: 180 }}
      >
        <MenuItem value="">
          <em>All accounts</em>
        </MenuItem>
        {accountNames.map((name) => (
          <MenuItem key={name} value={name}>
            {name}
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel
        control={<Switch checked={view.table} onChange={(e) => onChange({ table: e.target.checked || undefined })} />}
        label="Show as table"
      />
    </Paper>
  );
}
