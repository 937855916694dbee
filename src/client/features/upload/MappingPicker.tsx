import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { mappingDateFormats } from '../../../shared/csv/mapping';
import type { ColumnMapping } from '../../../shared/csv/types';

export type ColumnChoice = 'date' | 'description' | 'amount' | 'debit' | 'credit' | 'category' | 'ignore';

export const CHOICE_LABELS: Record<ColumnChoice, string> = {
  date: 'Date',
  description: 'Description part',
  amount: 'Amount',
  debit: 'Debit (money out)',
  credit: 'Credit (money in)',
  category: 'Category',
  ignore: 'Ignore',
};

/** Per-column choices of a mapping (every other column: Ignore). */
export function choicesFromMapping(mapping: ColumnMapping | null, width: number): ColumnChoice[] {
  const choices: ColumnChoice[] = Array.from({ length: width }, () => 'ignore');
  if (!mapping) return choices;
  const set = (index: number | undefined, choice: ColumnChoice) => {
    if (index !== undefined && index < width) choices[index] = choice;
  };
  set(mapping.date, 'date');
  set(mapping.amount, 'amount');
  set(mapping.debit, 'debit');
  set(mapping.credit, 'credit');
  set(mapping.category, 'category');
  for (const index of mapping.description) set(index, 'description');
  return choices;
}

/** The mapping the choices make, or the sentence saying what is missing. */
export function mappingFromChoices(
  choices: readonly ColumnChoice[],
  header: boolean,
  dateFormat = '',
): ColumnMapping | string {
  const all = (choice: ColumnChoice) => choices.flatMap((c, i) => (c === choice ? [i] : []));
  const single = (choice: ColumnChoice) => all(choice)[0];
  for (const choice of ['date', 'amount', 'debit', 'credit', 'category'] as const) {
    if (all(choice).length > 1) return `Choose ${CHOICE_LABELS[choice]} for one column only.`;
  }
  const date = single('date');
  if (date === undefined) return 'Choose the column that holds the date.';
  const amount = single('amount');
  const debit = single('debit');
  const credit = single('credit');
  if (amount === undefined && debit === undefined && credit === undefined)
    return 'Choose the amount column, or the debit and credit columns.';
  if (amount !== undefined && (debit !== undefined || credit !== undefined))
    return 'Choose either an amount column or debit and credit columns, not both.';
  return {
    header,
    date,
    description: all('description'),
    ...(amount !== undefined ? { amount } : {}),
    ...(debit !== undefined ? { debit } : {}),
    ...(credit !== undefined ? { credit } : {}),
    ...(single('category') !== undefined ? { category: single('category') } : {}),
    ...(dateFormat ? { dateFormat } : {}),
  };
}

interface MappingPickerProps {
  sample: string[][];
  initial: ColumnMapping | null;
  onApply: (mapping: ColumnMapping) => void;
  onCancel?: () => void;
}

/**
 * The role picker: the file's first rows column by column, each with a role (Date,
 * Description part, Amount, Debit, Credit, Category, Ignore). Laid out as cards, so a
 * phone shows every column without scrolling sideways.
 */
export function MappingPicker({ sample, initial, onApply, onCancel }: MappingPickerProps) {
  const width = Math.max(0, ...sample.map((row) => row.length));
  const [header, setHeader] = useState(initial?.header ?? false);
  const [choices, setChoices] = useState<ColumnChoice[]>(() => choicesFromMapping(initial, width));
  const [dateFormat, setDateFormat] = useState(initial?.dateFormat ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const headerRow = header ? sample[0] : null;
  const rows = (header ? sample.slice(1) : sample).slice(0, 3);
  const dateColumn = choices.indexOf('date');
  const dateFormats = dateColumn < 0 ? [] : mappingDateFormats(sample, dateColumn, header);
  const formatChoices = dateFormat && !dateFormats.includes(dateFormat) ? [dateFormat, ...dateFormats] : dateFormats;

  function apply() {
    const mapping = mappingFromChoices(choices, header, dateColumn < 0 ? '' : dateFormat);
    if (typeof mapping === 'string') setProblem(mapping);
    else {
      setProblem(null);
      onApply(mapping);
    }
  }

  return (
    <Paper variant="outlined" component="section" aria-labelledby="mapping-heading" sx={{ p: 2, mb: 2 }}>
      <Typography id="mapping-heading" variant="h3" component="h3" gutterBottom>
        Choose what each column holds
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        The mapping is saved for this account and used for its next files of the same shape.
      </Typography>
      <FormControlLabel
        control={<Checkbox checked={header} onChange={(e) => setHeader(e.target.checked)} />}
        label="The first row is a header"
      />
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
          my: 1,
        }}
      >
        {Array.from({ length: width }, (_, index) => (
          <ColumnCard
            key={index}
            index={index}
            name={headerRow?.[index]}
            values={rows.map((row) => row[index])}
            choice={choices[index] ?? 'ignore'}
            onChoice={(choice) => setChoices((current) => current.map((c, i) => (i === index ? choice : c)))}
          />
        ))}
      </Box>
      {dateColumn >= 0 && (
        <DateFormatChoice column={dateColumn} value={dateFormat} choices={formatChoices} onChange={setDateFormat} />
      )}
      {problem && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {problem}
        </Alert>
      )}
      <Stack direction="row" spacing={1}>
        <Button variant="contained" onClick={apply}>
          Use this mapping
        </Button>
        {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      </Stack>
    </Paper>
  );
}

interface ColumnCardProps {
  index: number;
  /** The column's header, when the first row is one. */
  name: string | undefined;
  /** The column's first values. */
  values: readonly (string | undefined)[];
  choice: ColumnChoice;
  onChoice: (choice: ColumnChoice) => void;
}

/** One column of the file: its name and first values, and the role chosen for it. */
function ColumnCard({ index, name, values, choice, onChoice }: ColumnCardProps) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5, minWidth: 0 }} data-testid={`mapping-column-${index}`}>
      <Typography variant="subtitle2" sx={{ overflowWrap: 'break-word' }}>
        {`Column ${index + 1}${name ? `: ${name}` : ''}`}
      </Typography>
      <Box component="ul" sx={{ m: 0, mb: 1, pl: 2, color: 'text.secondary', fontSize: '0.875rem' }}>
        {values.map((value, r) => (
          <li key={r} style={{ overflowWrap: 'break-word' }}>
            {value || '(empty)'}
          </li>
        ))}
      </Box>
      <TextField
        select
        fullWidth
        size="small"
        label={`Role of column ${index + 1}`}
        value={choice}
        onChange={(e) => onChoice(e.target.value as ColumnChoice)}
      >
        {(Object.keys(CHOICE_LABELS) as ColumnChoice[]).map((role) => (
          <MenuItem key={role} value={role}>
            {CHOICE_LABELS[role]}
          </MenuItem>
        ))}
      </TextField>
    </Paper>
  );
}

interface DateFormatChoiceProps {
  /** The date column's index. */
  column: number;
  value: string;
  /** The formats that read every date in the column (and the one chosen, if it is not among them). */
  choices: readonly string[];
  onChange: (format: string) => void;
}

/** The date column's format: one that reads every date in it, or detected from the file. */
function DateFormatChoice({ column, value, choices, onChange }: DateFormatChoiceProps) {
  return (
    <TextField
      select
      size="small"
      label="Date format of the date column"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      helperText={
        choices.length === 0
          ? 'No date format reads every date in this column: check the column chosen as Date.'
          : `Formats that read every date in column ${column + 1}.`
      }
      sx={{ minWidth: 260, mb: 1 }}
    >
      <MenuItem value="">Detect from the file</MenuItem>
      {choices.map((name) => (
        <MenuItem key={name} value={name}>
          {name}
        </MenuItem>
      ))}
    </TextField>
  );
}
