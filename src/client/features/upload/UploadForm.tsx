import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Alert, Box, Button, LinearProgress, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useMemo, useRef, useState, type DragEvent, type RefObject, type SubmitEvent } from 'react';
import type { AccountDto } from '../../../shared/schemas/accounts';
import type { ColumnMapping } from '../../../shared/csv/types';
import { IMPORT_TRANSACTION_TYPES, type ImportResult } from '../../../shared/schemas/import';
import { TextLink } from '../../components/RouterLinks';
import { formatBytes } from '../../lib/format';
import { postFormWithProgress, RestError, type UploadProgress } from '../../lib/rest';
import { trpc } from '../../lib/trpc';
import { ImportPreviewPanel } from './ImportPreviewPanel';
import { statementRoutes, type StatementChoices } from './StatementRoutes';
import { importForm, useImportPreview } from './useImportPreview';

/** Accounts sorted by name, shown as 'name (type)'. */
export function accountOptions(accounts: readonly AccountDto[]): { value: string; label: string }[] {
  return [...accounts]
    .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))
    .map((account) => ({ value: account.name, label: `${account.name} (${account.type})` }));
}

function percent(progress: UploadProgress | null): number {
  return progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;
}

/** The server's answer to the last upload, and the batches it made (its message goes once they are deleted). */
interface UploadResult {
  ok: boolean;
  text: string;
  batchIds: string[];
}

function batchIdsOf(answer: ImportResult): string[] {
  const ids = [answer.batchId, ...(answer.batches ?? []).map((batch) => batch.batchId)];
  return [...new Set(ids.filter((id): id is string => id !== null))];
}

/** Sends the file for real: progress while it goes, then the answer; the lists that show its rows are refreshed. */
function useSendImport() {
  const [uploading, setUploading] = useState(false);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [result, setResult] = useState<UploadResult | null>(null);
  const utils = trpc.useUtils();
  const batches = trpc.transactions.batches.useQuery();

  async function send(form: FormData): Promise<boolean> {
    setUploading(true);
    setProgress(null);
    setResult(null);
    try {
      const answer = await postFormWithProgress<ImportResult>('/api/upload', form, setProgress);
      await Promise.all([
        utils.accounts.list.invalidate(),
        utils.transactions.batches.invalidate(),
        utils.transactions.list.invalidate(),
        utils.categories.list.invalidate(),
      ]);
      setResult({ ok: true, text: answer.message, batchIds: batchIdsOf(answer) });
      return true;
    } catch (error) {
      const text = error instanceof RestError && error.message ? error.message : 'Failed to upload CSV';
      setResult({ ok: false, text, batchIds: [] });
      return false;
    } finally {
      setUploading(false);
      setProgress(null);
    }
  }

  // Once every batch the import made is deleted (below, or elsewhere), its message no longer describes anything.
  const stored = new Set((batches.data ?? []).map((batch) => batch.batchId));
  const current =
    result && (result.batchIds.length === 0 || !batches.data || result.batchIds.some((id) => stored.has(id)))
      ? result
      : null;
  return { uploading, progress, result: current, send, dismiss: () => setResult(null) };
}

/**
 * The 'Upload CSV' form: file, account and transaction type, a dry-run preview of what
 * will be stored (with the date-format choice and the flip switch), then the import
 * with upload progress.
 */
export function UploadForm({ accounts }: { accounts: readonly AccountDto[] }) {
  const [file, setFile] = useState<File | null>(null);
  const [account, setAccount] = useState('');
  const [transactionType, setTransactionType] = useState('auto');
  const [dateFormat, setDateFormat] = useState('');
  const [flipAmounts, setFlipAmounts] = useState(false);
  const [mapping, setMapping] = useState<ColumnMapping | null>(null);
  const [statementChoices, setStatementChoices] = useState<StatementChoices>({});
  const sending = useSendImport();
  const inputRef = useRef<HTMLInputElement>(null);
  const options = useMemo(() => accountOptions(accounts), [accounts]);
  // An account renamed or deleted in the widget is no longer a valid choice.
  const selectedAccount = options.some((o) => o.value === account) ? account : '';
  const choices = { file, account: selectedAccount, transactionType, dateFormat, flipAmounts, mapping };
  const preview = useImportPreview(choices);
  // Upload only what the preview read and would store: a refused file, or one whose every row is stored already,
  // has nothing to send.
  const nothingNew = preview.status === 'ready' && preview.preview.imported === 0;
  const canUpload = Boolean(file && selectedAccount && transactionType) && preview.status === 'ready' && !nothingNew;

  function resetFile(next: File | null) {
    setFile(next);
    setDateFormat('');
    setMapping(null);
    setStatementChoices({});
  }
  function chooseFile(next: File | null) {
    resetFile(next);
    sending.dismiss();
  }

  async function upload(event: SubmitEvent) {
    event.preventDefault();
    if (!canUpload || sending.uploading) return;
    const form = importForm(choices, false);
    const routes = statementRoutes(statementChoices);
    if (routes.length > 0) form.append('statements', JSON.stringify(routes));
    if (!(await sending.send(form))) return;
    resetFile(null);
    if (inputRef.current) inputRef.current.value = '';
  }

  return (
    <Paper
      component="form"
      onSubmit={(event) => void upload(event)}
      noValidate
      aria-labelledby="upload-heading"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id="upload-heading" variant="h2" gutterBottom>
        Upload CSV
      </Typography>
      <Stack spacing={2}>
        <FileDropZone file={file} inputRef={inputRef} onChoose={chooseFile} />
        <ChoiceFields
          options={options}
          account={selectedAccount}
          onAccount={setAccount}
          transactionType={transactionType}
          onTransactionType={setTransactionType}
        />
        <UploadButton
          disabled={!canUpload || sending.uploading}
          uploading={sending.uploading}
          nothingNew={nothingNew}
        />
        <UploadStatus {...sending} onDismiss={sending.dismiss} />
      </Stack>
      <ImportPreviewPanel
        state={preview}
        dateFormat={dateFormat}
        onDateFormatChange={setDateFormat}
        flipAmounts={flipAmounts}
        onFlipAmountsChange={setFlipAmounts}
        mapping={mapping}
        onMappingChange={setMapping}
        routing={{ accounts, chosenAccount: selectedAccount, choices: statementChoices, onChange: setStatementChoices }}
      />
    </Paper>
  );
}

/** Upload, disabled (and saying why) while the preview holds no new row. */
function UploadButton({
  disabled,
  uploading,
  nothingNew,
}: {
  disabled: boolean;
  uploading: boolean;
  nothingNew: boolean;
}) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <Button
        type="submit"
        variant="contained"
        disabled={disabled}
        aria-describedby={nothingNew ? 'upload-nothing-new' : undefined}
      >
        {uploading ? 'Uploading...' : 'Upload'}
      </Button>
      <TextLink to="/create-transaction">Create Transaction</TextLink>
      {nothingNew && (
        <Typography id="upload-nothing-new" variant="body2" color="text.secondary">
          Nothing new to upload: every row of this file is stored already.
        </Typography>
      )}
    </Stack>
  );
}

/** The file input behind a "Choose file" button, in a box that also takes a dropped file. */
function FileDropZone({
  file,
  inputRef,
  onChoose,
}: {
  file: File | null;
  inputRef: RefObject<HTMLInputElement | null>;
  onChoose: (file: File | null) => void;
}) {
  const [dragging, setDragging] = useState(false);
  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onChoose(dropped);
  }
  return (
    <Box
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: dragging ? 'primary.main' : 'divider',
        borderRadius: 1,
        p: 2,
        display: 'flex',
        flexWrap: 'wrap',
        gap: 2,
        alignItems: 'center',
      }}
    >
      <input
        ref={inputRef}
        id="csv-file"
        type="file"
        accept=".csv,.txt,.ofx,.qfx,.qif,.xml,text/csv"
        required
        hidden
        aria-label="CSV file"
        onChange={(e) => onChoose(e.target.files?.[0] ?? null)}
      />
      <Button
        variant="outlined"
        startIcon={<UploadFileIcon />}
        onClick={() => inputRef.current?.click()}
        aria-describedby="csv-file-name"
      >
        Choose file
      </Button>
      <Typography
        id="csv-file-name"
        sx={{ overflowWrap: 'break-word', minWidth: 0 }}
        color={file ? 'text.primary' : 'text.secondary'}
      >
        {file
          ? `${file.name} (${formatBytes(file.size)})`
          : 'No file chosen (or drop one here): CSV, OFX, QFX, QIF or CAMT.053'}
      </Typography>
    </Box>
  );
}

interface ChoiceFieldsProps {
  options: { value: string; label: string }[];
  account: string;
  onAccount: (account: string) => void;
  transactionType: string;
  onTransactionType: (type: string) => void;
}

/** The account and transaction type selects. */
function ChoiceFields({ options, account, onAccount, transactionType, onTransactionType }: ChoiceFieldsProps) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      <TextField select required fullWidth label="Account" value={account} onChange={(e) => onAccount(e.target.value)}>
        {options.length === 0 && (
          <MenuItem value="" disabled>
            Add an account first
          </MenuItem>
        )}
        {options.map((option) => (
          <MenuItem key={option.value} value={option.value}>
            {option.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        required
        fullWidth
        label="Transaction Type"
        value={transactionType}
        onChange={(e) => onTransactionType(e.target.value)}
      >
        {IMPORT_TRANSACTION_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {type === 'auto' ? 'auto (credit in, debit or charge out)' : type}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}

interface UploadStatusProps {
  uploading: boolean;
  progress: UploadProgress | null;
  result: UploadResult | null;
  onDismiss: () => void;
}

/** Progress while the file is sent and imported, then the server's answer. */
function UploadStatus({ uploading, progress, result, onDismiss }: UploadStatusProps) {
  const sent = percent(progress);
  return (
    <>
      {uploading && (
        <Box role="status">
          <LinearProgress
            variant={progress && sent < 100 ? 'determinate' : 'indeterminate'}
            value={sent}
            aria-label="Upload progress"
          />
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {progress && sent < 100 ? `Sending the file: ${sent}%` : 'Importing...'}
          </Typography>
        </Box>
      )}
      {result && (
        <Alert severity={result.ok ? 'success' : 'error'} role={result.ok ? 'status' : 'alert'} onClose={onDismiss}>
          {result.text}
        </Alert>
      )}
    </>
  );
}
