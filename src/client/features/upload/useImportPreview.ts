import { useQuery } from '@tanstack/react-query';
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
  | {
      status: 'refused';
      message: string;
      code: string | null;
      candidates: string[];
      needsMapping: boolean;
      sample: string[][];
      suggestedMapping: ColumnMapping | null;
    };

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

/** Each chosen File object gets its own number (two files of the same name and size are different files). */
const fileIds = new WeakMap<File, number>();
let nextFileId = 0;
function fileKey(file: File): number {
  let id = fileIds.get(file);
  if (id === undefined) {
    id = ++nextFileId;
    fileIds.set(file, id);
  }
  return id;
}

/** What the server's refusal of a dry run says, as the preview shows it. */
function refusalOf(error: unknown): PreviewState {
  const body = error instanceof RestError ? error.body : null;
  return {
    status: 'refused',
    message: error instanceof RestError && error.message ? error.message : 'Failed to read the file for a preview',
    code: typeof body?.code === 'string' ? body.code : null,
    candidates: stringList(body?.candidates),
    needsMapping: body?.needsMapping === true,
    sample: sampleOf(body?.sample),
    suggestedMapping:
      body?.suggestedMapping && typeof body.suggestedMapping === 'object'
        ? (body.suggestedMapping as ColumnMapping)
        : null,
  };
}

/**
 * The import API's dry run for the current choices, as a TanStack query keyed by every choice: a new
 * file, account, type, date format, flip switch or mapping is a new key, asked at once, and an answer
 * to older choices lands under its own key, so it never shows over the current one. Not kept once
 * unused (gcTime 0): the same file previewed again after an import must count its duplicates anew.
 */
export function useImportPreview(choices: ImportChoices): PreviewState {
  const { file, account, transactionType, dateFormat, flipAmounts, mapping } = choices;
  const ready = file !== null && account !== '' && transactionType !== '';
  const query = useQuery({
    queryKey: ['import.preview', file ? fileKey(file) : 0, account, transactionType, dateFormat, flipAmounts, mapping],
    queryFn: () =>
      postFormWithProgress<ImportPreview>(
        '/api/upload',
        importForm({ file, account, transactionType, dateFormat, flipAmounts, mapping }, true),
      ),
    enabled: ready,
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  if (!ready) return { status: 'idle' };
  if (query.data) return { status: 'ready', preview: query.data };
  if (query.isError) return refusalOf(query.error);
  return { status: 'loading' };
}
