import { useEffect, useRef, useState } from 'react';
import type { ColumnMapping } from '../../../shared/csv/types';
import type { ImportPreview } from '../../../shared/schemas/import';
import { postFormWithProgress, RestError } from '../../lib/rest';

export interface ImportChoices {
  file: File | null;
  account: string;
  transactionType: string;
  /** '' lets the server detect it. */
  dateFormat: string;
  flipAmounts: boolean;
  /** A column mapping chosen in the picker (saved as the account's profile on import); null lets the server read the file. */
  mapping: ColumnMapping | null;
}

export type PreviewState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; preview: ImportPreview }
  /**
   * The server refused the file; `candidates` are date formats to choose from when the order
   * is ambiguous; `sample` (with `needsMapping`) the first rows to map columns on.
   */
  | { status: 'refused'; message: string; code: string | null; candidates: string[]; needsMapping: boolean; sample: string[][]; suggestedMapping: ColumnMapping | null };

/** Wait for choices to settle (a user clicking through the selects) before asking the server. */
const PREVIEW_DELAY_MS = 200;

/** The multipart body POST /api/upload takes, for a dry run or the real import. */
export function importForm(choices: ImportChoices, dryRun: boolean): FormData {
  const form = new FormData();
  form.append('account', choices.account);
  form.append('transactionType', choices.transactionType);
  if (choices.dateFormat) form.append('dateFormat', choices.dateFormat);
  if (choices.flipAmounts) form.append('flipAmounts', 'true');
  if (choices.mapping) form.append('mapping', JSON.stringify(choices.mapping));
  if (dryRun) form.append('dryRun', 'true');
  if (choices.file) form.append('file', choices.file, choices.file.name);
  return form;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A preview cell as text: the server sends strings (numbers and booleans read as written); anything else is blank. */
function cellText(cell: unknown): string {
  return typeof cell === 'string' || typeof cell === 'number' || typeof cell === 'boolean' ? String(cell) : '';
}

function sampleOf(value: unknown): string[][] {
  return Array.isArray(value) ? value.filter(Array.isArray).map((row: unknown[]) => row.map(cellText)) : [];
}

/**
 * The import API's dry run for the current choices: re-run whenever the file, account,
 * type, date format, flip switch or mapping changes, answers to older choices ignored.
 */
export function useImportPreview(choices: ImportChoices): PreviewState {
  const [state, setState] = useState<PreviewState>({ status: 'idle' });
  const requestId = useRef(0);
  const { file, account, transactionType, dateFormat, flipAmounts, mapping } = choices;
  const mappingKey = mapping ? JSON.stringify(mapping) : '';

  useEffect(() => {
    const id = ++requestId.current;
    if (!file || !account || !transactionType) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- the preview follows the chosen file: a cleared choice resets it in the same effect that starts requests
      setState({ status: 'idle' });
      return;
    }
    setState({ status: 'loading' });
    const chosenMapping = mappingKey ? (JSON.parse(mappingKey) as ColumnMapping) : null;
    const timer = setTimeout(() => {
      postFormWithProgress<ImportPreview>('/api/upload', importForm({ file, account, transactionType, dateFormat, flipAmounts, mapping: chosenMapping }, true))
        .then((preview) => {
          if (id === requestId.current) setState({ status: 'ready', preview });
        })
        .catch((error: unknown) => {
          if (id !== requestId.current) return;
          const body = error instanceof RestError ? error.body : null;
          setState({
            status: 'refused',
            message: error instanceof RestError && error.message ? error.message : 'Failed to read the file for a preview',
            code: typeof body?.code === 'string' ? body.code : null,
            candidates: stringList(body?.candidates),
            needsMapping: body?.needsMapping === true,
            sample: sampleOf(body?.sample),
            suggestedMapping: body?.suggestedMapping && typeof body.suggestedMapping === 'object' ? (body.suggestedMapping as ColumnMapping) : null,
          });
        });
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [file, account, transactionType, dateFormat, flipAmounts, mappingKey]);

  return state;
}
