import { Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { FileChooserButton } from '../../components/FileChooserButton';
import { OutcomeAlert, type Outcome } from '../../components/OutcomeAlert';
import type { RateImportAnswer } from '../../../shared/schemas/rates';
import { postFormWithProgress, RestError } from '../../lib/rest';
import { trpc } from '../../lib/trpc';

function importedText(answer: RateImportAnswer): string {
  const ignored = answer.ignoredCurrencies.length
    ? ` Left out ${answer.ignoredCurrencies.join(', ')} (no longer ISO 4217 codes).`
    : '';
  const skipped = answer.skipped ? ` ${answer.skipped} rows without a rate were skipped.` : '';
  return `${answer.message} (${answer.currencies.join(', ')}).${ignored}${skipped}`;
}

/**
 * Import a rates file as a multipart upload (the ECB's whole history is larger than a JSON call may be):
 * the ECB's eurofxref-hist.csv or its XML, or a CSV with the header date,base,quote,rate.
 */
export function RateImport() {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const utils = trpc.useUtils();

  async function upload(file: File) {
    setOutcome(null);
    setBusy(true);
    try {
      const body = new FormData();
      body.append('file', file, file.name);
      const answer = await postFormWithProgress<RateImportAnswer>('/api/rates', body);
      await utils.invalidate();
      setOutcome({ severity: 'success', text: importedText(answer) });
    } catch (failure) {
      const reason =
        failure instanceof RestError && failure.message ? failure.message : 'the server could not be reached';
      setOutcome({ severity: 'error', text: `Failed to import ${file.name}: ${reason}` });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper component="section" aria-labelledby="rates-import-heading" sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}>
      <Typography id="rates-import-heading" variant="h2" gutterBottom>
        Import rates
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        The app works offline: download the European Central Bank’s reference rates (eurofxref-hist.csv, or its zip’s
        CSV, or the XML) and import the file here, or a CSV with the header date,base,quote,rate. A rate already stored
        for the same pair and date is replaced. Rates are shared by every user of this server.
      </Typography>
      <Stack direction="row" sx={{ mt: 2 }}>
        <FileChooserButton
          label="Import a rates file"
          busyLabel="Importing…"
          busy={busy}
          accept=".csv,.xml,text/csv,application/xml,text/xml"
          inputLabel="Rates file"
          onFile={(file) => void upload(file)}
        />
      </Stack>
      <OutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} />
    </Paper>
  );
}
