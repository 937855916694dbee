import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';

/** The codes as a text file: one a line, with what they are for. */
export function recoveryCodesText(codes: readonly string[], host: string): string {
  return [
    `Budget Tracker recovery codes (${host})`,
    'Each code signs in once in place of a code from the authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}

function saveTextFile(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * The ten recovery codes, shown once right after two-factor sign-in is turned on (the server keeps only their
 * hashes): listed, copied or downloaded, and dismissed when saved.
 */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = recoveryCodesText(codes, window.location.host);

  async function copy() {
    // navigator.clipboard is missing outside secure contexts (plain http): the list stays selectable.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    if (!navigator.clipboard) return;
    await navigator.clipboard.writeText(text);
    setCopied(true);
  }

  return (
    <Stack spacing={2}>
      <Alert severity="success">
        Two-factor sign-in is on. Save these recovery codes now: they will not be shown again. Each signs in once if the
        authenticator app is lost.
      </Alert>
      <Box
        component="ol"
        aria-label="Recovery codes"
        sx={{
          m: 0,
          pl: 4,
          fontFamily: 'monospace',
          fontSize: '1rem',
          columnCount: { xs: 1, sm: 2 },
          '& li': { py: 0.25 },
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => saveTextFile('budget-tracker-recovery-codes.txt', text)}
        >
          Download codes
        </Button>
        <Button variant="contained" onClick={onDone}>
          I have saved them
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" aria-live="polite">
        {copied ? 'The codes are on the clipboard.' : ''}
      </Typography>
    </Stack>
  );
}
