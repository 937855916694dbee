import { useEffect, useRef, useState } from 'react';
import type { ImportPreview } from '../../../shared/schemas/import';
import { postFormWithProgress, RestError } from '../../lib/rest';

export interface ImportChoices {
  file: File | null;
  account: string;
  transactionType: string;
  /** '' lets the server detect it. */
  dateFormat: string;
  flipAmounts: boolean;
}

export type PreviewState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; preview: ImportPreview }
  /** The server refused the file; `candidates` are date formats to choose from when the order is ambiguous. */
  | { status: 'refused'; message: string; code: string | null; candidates: string[] };

/** Wait for choices to settle (a user clicking through the selects) before asking the server. */
const PREVIEW_DELAY_MS = 200;

/** The multipart body POST /api/upload takes, for a dry run or the real import. */
export function importForm(choices: ImportChoices, dryRun: boolean): FormData {
  const form = new FormData();
  form.append('account', choices.account);
  form.append('transactionType', choices.transactionType);
  if (choices.dateFormat) form.append('dateFormat', choices.dateFormat);
  if (choices.flipAmounts) form.append('flipAmounts', 'true');
  if (dryRun) form.append('dryRun', 'true');
  if (choices.file) form.append('file', choices.file, choices.file.name);
  return form;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The import API's dry run for the current choices: re-run whenever the file, account,
 * type, date format or flip switch changes, answers to older choices ignored.
 */
export function useImportPreview(choices: ImportChoices): PreviewState {
  const [state, setState] = useState<PreviewState>({ status: 'idle' });
  const requestId = useRef(0);
  const { file, account, transactionType, dateFormat, flipAmounts } = choices;

  useEffect(() => {
    const id = ++requestId.current;
    if (!file || !account || !transactionType) {
      setState({ status: 'idle' });
      return;
    }
    setState({ status: 'loading' });
    const timer = setTimeout(() => {
      postFormWithProgress<ImportPreview>('/api/upload', importForm({ file, account, transactionType, dateFormat, flipAmounts }, true))
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
          });
        });
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
  }, [file, account, transactionType, dateFormat, flipAmounts]);

  return state;
}
