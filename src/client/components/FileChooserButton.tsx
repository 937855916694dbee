import { Button } from '@mui/material';
import { useRef } from 'react';

interface FileChooserButtonProps {
  /** The button's text, and its text while `busy`. */
  label: string;
  busyLabel: string;
  busy: boolean;
  /** The file input's accept list and accessible name. */
  accept: string;
  inputLabel: string;
  onFile: (file: File) => void;
}

/**
 * A button that opens the browser's file chooser and hands over the chosen file. The input is cleared
 * once read, so choosing the same file again (after fixing it) sends it again.
 */
export function FileChooserButton({ label, busyLabel, busy, accept, inputLabel, onFile }: FileChooserButtonProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button variant="outlined" disabled={busy} onClick={() => input.current?.click()}>
        {busy ? busyLabel : label}
      </Button>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        aria-label={inputLabel}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </>
  );
}
