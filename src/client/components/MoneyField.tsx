import { TextField, type TextFieldProps } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { readAmountField, understoodAmount } from '../lib/amountField';
import { browserLocale } from '../lib/locale';

type BaseProps = Omit<TextFieldProps, 'value' | 'onChange' | 'type' | 'error' | 'helperText' | 'defaultValue'>;

export interface MoneyFieldProps extends BaseProps {
  value: string;
  onChange: (text: string) => void;
  /** A message from the form or the server; shown instead of the field's own. */
  error?: string;
  /** Shown while there is no error. */
  helperText?: ReactNode;
  /** Sizes only (split parts). */
  unsigned?: boolean;
  /** ISO 4217 code of the amount (an account's): read in its decimals, none for yen. */
  currency?: string | null;
}

/**
 * An amount field: a text box (decimal keyboard on phones) read by the shared parser in the
 * browser's locale. Leaving it shows what was understood ("-100,50" becomes "-100.50" in en-US)
 * or, when the text is no amount, the error right under it. Letters are kept as typed, never
 * dropped, so the person sees what is wrong.
 */
export function MoneyField({
  value,
  onChange,
  error,
  helperText,
  unsigned = false,
  currency = null,
  onBlur,
  slotProps,
  ...rest
}: MoneyFieldProps) {
  const [own, setOwn] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const locale = browserLocale();
  const shown = error ?? own ?? undefined;
  return (
    <TextField
      {...rest}
      type="text"
      value={value}
      autoComplete="off"
      onChange={(event) => {
        setOwn(null);
        setNote(null);
        onChange(event.target.value);
      }}
      onBlur={(event) => {
        const read = readAmountField(value, locale, { unsigned, currency });
        if (!read.ok) {
          setOwn(read.message);
        } else {
          const understood = understoodAmount(value, locale, currency);
          if (understood && understood.text !== value) onChange(understood.text);
          setNote(understood?.note ?? null);
        }
        onBlur?.(event);
      }}
      error={Boolean(shown)}
      helperText={shown ?? note ?? helperText}
      slotProps={{
        ...slotProps,
        htmlInput: { inputMode: 'decimal', spellCheck: false, ...(slotProps?.htmlInput as object) },
      }}
    />
  );
}
