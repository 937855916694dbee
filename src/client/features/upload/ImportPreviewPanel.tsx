import {
  Alert,
  Box,
  Chip,
  CircularProgress,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import type { ColumnRole } from '../../../shared/csv/columns';
import type { ImportPreview } from '../../../shared/schemas/import';
import { Amount } from '../../components/transactions/Amount';
import type { PreviewState } from './useImportPreview';

const ROLE_LABELS: Record<ColumnRole, string> = {
  date: 'Date',
  amount: 'Amount',
  debit: 'Money out',
  credit: 'Money in',
  indicator: 'Debit/credit marker',
  description: 'Description',
  'description-fallback': 'Description (fallback)',
  counterparty: 'Counterparty',
  payee: 'Paid to',
  payer: 'Paid by',
  category: 'Category',
  currency: 'Currency',
};

const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };

interface ImportPreviewPanelProps {
  state: PreviewState;
  dateFormat: string;
  onDateFormatChange(format: string): void;
  flipAmounts: boolean;
  onFlipAmountsChange(flip: boolean): void;
}

/** The dry run's answer: what the file holds and exactly what the import will store. */
export function ImportPreviewPanel({ state, dateFormat, onDateFormatChange, flipAmounts, onFlipAmountsChange }: ImportPreviewPanelProps) {
  if (state.status === 'idle') {
    return (
      <Typography color="text.secondary" sx={{ mt: 2 }}>
        Choose a file, an account and a transaction type to see a preview before importing.
      </Typography>
    );
  }
  const candidates =
    state.status === 'refused' ? state.candidates : state.status === 'ready' ? state.preview.dateFormatCandidates : [];
  const showDateFormat = candidates.length > 1 || dateFormat !== '';
  return (
    <Box component="section" aria-labelledby="import-preview-heading" sx={{ mt: 3 }}>
      <Typography id="import-preview-heading" variant="h3" component="h2" gutterBottom>
        Preview
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, mb: 2 }}>
        {showDateFormat && (
          <TextField
            select
            label="Date format"
            size="small"
            value={dateFormat}
            onChange={(e) => onDateFormatChange(e.target.value)}
            sx={{ minWidth: 220 }}
          >
            <MenuItem value="">Detect automatically</MenuItem>
            {candidates.map((name) => (
              <MenuItem key={name} value={name}>
                {name}
              </MenuItem>
            ))}
          </TextField>
        )}
        <FormControlLabel
          control={<Switch checked={flipAmounts} onChange={(e) => onFlipAmountsChange(e.target.checked)} />}
          label="Flip amounts (the bank shows money spent as positive)"
        />
      </Stack>
      {state.status === 'loading' && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={20} aria-label="Reading the file" />
          <Typography>Reading the file...</Typography>
        </Stack>
      )}
      {state.status === 'refused' && (
        <Alert severity={state.code === 'AMBIGUOUS_DATE' ? 'warning' : 'error'} role="alert">
          {state.message}
          {state.code === 'AMBIGUOUS_DATE' && ' Pick the date format above.'}
        </Alert>
      )}
      {state.status === 'ready' && <PreviewDetails preview={state.preview} />}
    </Box>
  );
}

function PreviewDetails({ preview }: { preview: ImportPreview }) {
  const shown = preview.rows;
  const later = preview.totalRows - Math.min(preview.totalRows, 100);
  return (
    <>
      <Alert severity={preview.imported > 0 ? 'info' : 'warning'} sx={{ mb: 2 }}>
        {preview.message}
        {preview.skipped > 0 && ` ${preview.skipped} line${preview.skipped === 1 ? '' : 's'} outside the table will be ignored.`}
      </Alert>
      <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0, mb: 2 }}>
        <Typography component="dt" color="text.secondary">
          Date format
        </Typography>
        <Typography component="dd" sx={{ m: 0 }} data-testid="preview-date-format">
          {preview.dateFormat}
        </Typography>
        <Typography component="dt" color="text.secondary">
          File
        </Typography>
        <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
          {preview.encoding}, {DELIMITER_NAMES[preview.delimiter] ?? `'${preview.delimiter}'`}-separated, header on line {preview.headerLine}
        </Typography>
        <Typography component="dt" color="text.secondary">
          Columns
        </Typography>
        <Box component="dd" sx={{ m: 0, display: 'flex', flexWrap: 'wrap', gap: 0.5 }} aria-label="Detected columns">
          {preview.columns.map((column) => (
            <Chip key={column.index} size="small" variant="outlined" label={`${column.header || `Column ${column.index + 1}`} → ${ROLE_LABELS[column.role]}`} />
          ))}
        </Box>
      </Box>
      {preview.warnings.length > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {preview.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </Box>
        </Alert>
      )}
      <TableContainer sx={{ maxHeight: 360, border: 1, borderColor: 'divider', borderRadius: 1 }} tabIndex={0} aria-label="Rows to import">
        <Table size="small" stickyHeader aria-label="Rows as they will be stored">
          <TableHead>
            <TableRow>
              <TableCell>Line</TableCell>
              <TableCell>Date</TableCell>
              <TableCell>Description</TableCell>
              <TableCell align="right">Amount</TableCell>
              <TableCell>Category</TableCell>
              <TableCell>Status</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((row) => (
              <TableRow key={row.line} sx={row.duplicate ? { '& td': { color: 'text.secondary' } } : undefined}>
                <TableCell>{row.line}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.postDate}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{row.description}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Amount cents={row.amount} />
                </TableCell>
                <TableCell>{row.category ?? ''}</TableCell>
                <TableCell>{row.duplicate ? <Chip size="small" label="Duplicate" variant="outlined" /> : 'New'}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {later > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Showing the first {Math.min(preview.totalRows, 100)} of {preview.totalRows} rows{shown.length > 100 ? ' and later duplicates' : ''}.
        </Typography>
      )}
    </>
  );
}
