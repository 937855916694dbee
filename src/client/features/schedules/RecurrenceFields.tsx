import {
  Checkbox,
  FormControlLabel,
  FormGroup,
  FormLabel,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  describeRecurrence,
  MONTH_NAMES,
  ordinal,
  parseRecurrence,
  WEEKDAY_CODES,
  weekdayName,
  type PatternKind,
  type WeekdayCode,
} from '../../../shared/schedules';
import { draftRule, type ScheduleDraft } from './scheduleForm';

const KINDS: [PatternKind, string][] = [
  ['days', 'Every N days'],
  ['weeks', 'Every N weeks'],
  ['monthDay', 'A day of the month'],
  ['nthWeekday', 'The nth weekday of the month'],
  ['yearly', 'Once a year'],
  ['custom', 'Custom rule (RRULE)'],
];
const UNITS: Partial<Record<PatternKind, string>> = {
  days: 'days',
  weeks: 'weeks',
  monthDay: 'months',
  nthWeekday: 'months',
};
const MONTH_DAYS = [...Array.from({ length: 31 }, (_, i) => i + 1), -1];
const NTHS = [1, 2, 3, 4, -1];

interface RecurrenceFieldsProps {
  draft: ScheduleDraft;
  onChange: (change: Partial<ScheduleDraft>) => void;
}

/** How often a schedule recurs: a pattern from a list, with its RRULE text shown (and typed, for a custom rule). */
export function RecurrenceFields({ draft, onChange }: RecurrenceFieldsProps) {
  const rule = draftRule(draft);
  const parsed = parseRecurrence(rule);
  const unit = UNITS[draft.kind];
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          select
          label="Repeats"
          value={draft.kind}
          onChange={(e) =>
            onChange({ kind: e.target.value as PatternKind, ...(e.target.value === 'custom' ? { rule } : {}) })
          }
          sx={{ minWidth: 240 }}
        >
          {KINDS.map(([kind, label]) => (
            <MenuItem key={kind} value={kind}>
              {label}
            </MenuItem>
          ))}
        </TextField>
        {unit && (
          <TextField
            label={`Every how many ${unit}`}
            type="number"
            value={draft.every}
            onChange={(e) => onChange({ every: e.target.value })}
            slotProps={{ htmlInput: { min: 1, max: 999 } }}
            sx={{ width: 200 }}
          />
        )}
      </Stack>
      {draft.kind === 'weeks' && <WeekdayBoxes draft={draft} onChange={onChange} />}
      {(draft.kind === 'monthDay' || draft.kind === 'yearly') && <DayFields draft={draft} onChange={onChange} />}
      {draft.kind === 'nthWeekday' && <NthWeekdayFields draft={draft} onChange={onChange} />}
      <TextField
        label="Rule (RFC 5545 RRULE)"
        value={rule}
        onChange={(e) => onChange({ kind: 'custom', rule: e.target.value })}
        error={!parsed.ok}
        helperText={parsed.ok ? describeRecurrence(parsed.text) : parsed.message}
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        autoComplete="off"
      />
    </Stack>
  );
}

function WeekdayBoxes({ draft, onChange }: RecurrenceFieldsProps) {
  const toggle = (code: WeekdayCode, on: boolean) =>
    onChange({ weekdays: on ? [...draft.weekdays, code] : draft.weekdays.filter((day) => day !== code) });
  return (
    <div role="group" aria-labelledby="schedule-weekdays-label">
      <FormLabel id="schedule-weekdays-label">
        <Typography variant="body2" component="span">
          On (none: the start date’s weekday)
        </Typography>
      </FormLabel>
      <FormGroup row>
        {WEEKDAY_CODES.map((code) => (
          <FormControlLabel
            key={code}
            label={weekdayName(code).slice(0, 3)}
            control={
              <Checkbox checked={draft.weekdays.includes(code)} onChange={(e) => toggle(code, e.target.checked)} />
            }
          />
        ))}
      </FormGroup>
    </div>
  );
}

/** The day of the month (and the month, yearly): the 29th to 31st fall on the last day of shorter months. */
function DayFields({ draft, onChange }: RecurrenceFieldsProps) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
      {draft.kind === 'yearly' && (
        <TextField
          select
          label="Month"
          value={draft.month}
          onChange={(e) => onChange({ month: e.target.value })}
          sx={{ minWidth: 160 }}
        >
          {MONTH_NAMES.map((name, i) => (
            <MenuItem key={name} value={String(i + 1)}>
              {name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        select
        label="Day"
        value={draft.monthDay}
        onChange={(e) => onChange({ monthDay: e.target.value })}
        helperText="The 29th to 31st fall on the last day of shorter months"
        sx={{ minWidth: 160 }}
      >
        {MONTH_DAYS.map((day) => (
          <MenuItem key={day} value={String(day)}>
            {day === -1 ? 'Last day' : ordinal(day)}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}

function NthWeekdayFields({ draft, onChange }: RecurrenceFieldsProps) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
      <TextField
        select
        label="Which"
        value={draft.nth}
        onChange={(e) => onChange({ nth: e.target.value })}
        sx={{ minWidth: 140 }}
      >
        {NTHS.map((n) => (
          <MenuItem key={n} value={String(n)}>
            {ordinal(n)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label="Weekday"
        value={draft.weekday}
        onChange={(e) => onChange({ weekday: e.target.value as WeekdayCode })}
        sx={{ minWidth: 160 }}
      >
        {WEEKDAY_CODES.map((code) => (
          <MenuItem key={code} value={code}>
            {weekdayName(code)}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
