import {
  Alert,
  Box,
  Button,
  CircularProgress,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import type { ColumnMapping } from '../../../shared/csv/types';
import type { ImportPreview } from '../../../shared/schemas/import';
import type { AccountDto } from '../../../shared/schemas/accounts';
import { ColumnRoles } from './ColumnRoles';
import { ImportAttentionAlerts } from './ImportAttention';
import { MappingPicker } from './MappingPicker';
import { StatementRoutesPanel, type StatementChoices } from './StatementRoutes';
import { PreviewRows } from './PreviewRows';
import type { PreviewState } from './useImportPreview';

const FORMAT_LABELS: Record<ImportPreview['format'], string> = {
  csv: 'CSV',
  ofx: 'OFX',
  qif: 'QIF',
  camt053: 'CAMT.053',
};

const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };

interface ImportPreviewPanelProps {
  state: PreviewState;
  dateFormat: string;
  onDateFormatChange: (format: string) => void;
  flipAmounts: boolean;
  onFlipAmountsChange: (flip: boolean) => void;
  /** The mapping chosen in the picker, null to let the server read the file (or use the account's saved one). */
  mapping: ColumnMapping | null;
  onMappingChange: (mapping: ColumnMapping | null) => void;
  /** A file of several accounts: where each statement goes. */
  routing: StatementRouting;
}

export interface StatementRouting {
  accounts: readonly AccountDto[];
  chosenAccount: string;
  choices: StatementChoices;
  onChange: (choices: StatementChoices) => void;
}

/** The dry run's answer: what the file holds and exactly what the import will store. */
export function ImportPreviewPanel({
  state,
  dateFormat,
  onDateFormatChange,
  flipAmounts,
  onFlipAmountsChange,
  mapping,
  onMappingChange,
  routing,
}: ImportPreviewPanelProps) {
  const [changing, setChanging] = useState(false);
  if (state.status === 'idle') {
    return (
      <Typography color="text.secondary" sx={{ mt: 2 }}>
        Choose a file, an account and a transaction type to see a preview before importing.
      </Typography>
    );
  }
  const candidates =
    state.status === 'refused' ? state.candidates : state.status === 'ready' ? state.preview.dateFormatCandidates : [];
  // The date format is offered when the file could be read more than one way, or one was chosen.
  const showDateFormat = candidates.length > 1 || dateFormat !== '';
  return (
    <Box component="section" aria-labelledby="import-preview-heading" sx={{ mt: 3 }}>
      <Typography id="import-preview-heading" variant="h3" component="h2" gutterBottom>
        Preview
      </Typography>
      <ReadingOptions
        candidates={showDateFormat ? candidates : null}
        dateFormat={dateFormat}
        onDateFormatChange={onDateFormatChange}
        flipAmounts={flipAmounts}
        onFlipAmountsChange={onFlipAmountsChange}
      />
      {state.status === 'loading' && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={20} aria-label="Reading the file" />
          <Typography>Reading the file...</Typography>
        </Stack>
      )}
      {state.status === 'refused' && <Refusal refusal={state} mapping={mapping} onMappingChange={onMappingChange} />}
      {state.status === 'ready' && state.preview.mapping && (
        <MappingNotice
          saved={state.preview.usedSavedMapping}
          changing={changing}
          onToggle={() => setChanging((open) => !open)}
        />
      )}
      {state.status === 'ready' && changing && state.preview.sample && (
        <MappingPicker
          sample={state.preview.sample}
          initial={state.preview.mapping}
          onApply={(next) => {
            setChanging(false);
            onMappingChange(next);
          }}
          onCancel={() => setChanging(false)}
        />
      )}
      {state.status === 'ready' && (
        <PreviewDetails
          preview={state.preview}
          flipAmounts={flipAmounts}
          onFlipAmountsChange={onFlipAmountsChange}
          onMappingChange={onMappingChange}
          routing={routing}
        />
      )}
    </Box>
  );
}

interface PreviewDetailsProps {
  preview: ImportPreview;
  flipAmounts: boolean;
  onFlipAmountsChange: (flip: boolean) => void;
  onMappingChange: (mapping: ColumnMapping) => void;
  routing: StatementRouting;
}

function PreviewDetails({ preview, flipAmounts, onFlipAmountsChange, onMappingChange, routing }: PreviewDetailsProps) {
  const shown = preview.rows;
  const later = preview.totalRows - Math.min(preview.totalRows, 100);
  const attention = preview.attention ?? [];
  // The attention alerts say these already, prominently.
  const warnings = preview.warnings.filter((w) => !attention.some((a) => a.message === w));
  return (
    <>
      <ImportAttentionAlerts
        attention={attention}
        flipAmounts={flipAmounts}
        onFlipAmountsChange={onFlipAmountsChange}
      />
      <Alert severity={preview.imported > 0 ? 'info' : 'warning'} sx={{ mb: 2 }}>
        {preview.message}
      </Alert>
      {preview.statements && (
        <StatementRoutesPanel
          statements={preview.statements}
          accounts={routing.accounts}
          chosenAccount={routing.chosenAccount}
          choices={routing.choices}
          onChange={routing.onChange}
        />
      )}
      <FileFacts preview={preview} onMappingChange={onMappingChange} />
      {preview.notes.length > 0 && (
        <Box component="ul" sx={{ m: 0, mb: 2, pl: 2 }} aria-label="How the file was read">
          {preview.notes.map((note) => (
            <Typography component="li" variant="body2" key={note}>
              {note}
            </Typography>
          ))}
        </Box>
      )}
      {warnings.length > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </Box>
        </Alert>
      )}
      <PreviewRows rows={shown} />
      {later > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Showing the first {Math.min(preview.totalRows, 100)} of {preview.totalRows} rows
          {shown.length > 100 ? ' and later duplicates' : ''}.
        </Typography>
      )}
    </>
  );
}

interface ReadingOptionsProps {
  /** The date formats the file could be read with; null when there is no choice to offer. */
  candidates: readonly string[] | null;
  dateFormat: string;
  onDateFormatChange: (format: string) => void;
  flipAmounts: boolean;
  onFlipAmountsChange: (flip: boolean) => void;
}

/** How to read the file: its date format (when it is in doubt) and whether to flip the amounts' signs. */
function ReadingOptions(props: ReadingOptionsProps) {
  const { candidates, dateFormat, onDateFormatChange, flipAmounts, onFlipAmountsChange } = props;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, mb: 2 }}>
      {candidates && (
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
  );
}

/** Which column mapping the preview used (the account's saved one, or the one chosen), and Change mapping. */
function MappingNotice({ saved, changing, onToggle }: { saved: boolean; changing: boolean; onToggle: () => void }) {
  return (
    <Alert
      severity="info"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onToggle}>
          {changing ? 'Keep mapping' : 'Change mapping'}
        </Button>
      }
    >
      {saved
        ? 'Using the saved mapping for this account.'
        : 'Using the mapping chosen above; it is saved for this account when you upload.'}
    </Alert>
  );
}

/** How the file was read: its date format and column, its kind and encoding, and (a CSV) each column's role. */
function FileFacts({
  preview,
  onMappingChange,
}: {
  preview: ImportPreview;
  onMappingChange: (mapping: ColumnMapping) => void;
}) {
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0, mb: 2 }}
    >
      <Typography component="dt" color="text.secondary">
        Date format
      </Typography>
      <Typography component="dd" sx={{ m: 0 }} data-testid="preview-date-format">
        {preview.dateFormat}
      </Typography>
      <Typography component="dt" color="text.secondary">
        Dates from
      </Typography>
      <Typography component="dd" sx={{ m: 0, overflowWrap: 'break-word' }} data-testid="preview-date-column">
        {preview.dateColumn}
      </Typography>
      <Typography component="dt" color="text.secondary">
        File
      </Typography>
      <Typography component="dd" sx={{ m: 0, overflowWrap: 'break-word' }}>
        {preview.format === 'csv'
          ? `${preview.encoding}, ${DELIMITER_NAMES[preview.delimiter] ?? `'${preview.delimiter}'`}-separated, ${preview.headerLine > 0 ? `header on line ${preview.headerLine}` : 'no header'}`
          : `${FORMAT_LABELS[preview.format]} statement, ${preview.encoding}`}
      </Typography>
      {preview.format === 'csv' && (
        <>
          <Typography component="dt" color="text.secondary">
            Columns
          </Typography>
          <ColumnRoles
            columns={preview.columns}
            headers={preview.headers}
            hasHeader={preview.headerLine > 0}
            onMappingChange={onMappingChange}
          />
        </>
      )}
    </Box>
  );
}

type RefusedState = Extract<PreviewState, { status: 'refused' }>;

/** Why the file could not be previewed; a CSV whose columns are in doubt offers the mapping picker. */
function Refusal(props: {
  refusal: RefusedState;
  mapping: ColumnMapping | null;
  onMappingChange: (mapping: ColumnMapping | null) => void;
}) {
  const { refusal, mapping, onMappingChange } = props;
  return (
    <>
      <Alert
        severity={refusal.code === 'AMBIGUOUS_DATE' || refusal.needsMapping ? 'warning' : 'error'}
        role="alert"
        sx={{ mb: 2 }}
      >
        {refusal.message}
        {refusal.code === 'AMBIGUOUS_DATE' && ' Pick the date format above.'}
      </Alert>
      {refusal.needsMapping && refusal.sample.length > 0 && (
        <MappingPicker
          key={JSON.stringify(refusal.sample[0])}
          sample={refusal.sample}
          initial={mapping ?? refusal.suggestedMapping}
          onApply={onMappingChange}
        />
      )}
    </>
  );
}
