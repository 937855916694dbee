import { MenuItem, TextField, type TextFieldProps } from '@mui/material';
import { CURRENCY_CODES } from '../../shared/money/currencies';

/** The currency's name in the browser's language ("Euro"), or nothing where the runtime has none. */
function currencyName(code: string): string {
  try {
    const name = new Intl.DisplayNames(undefined, { type: 'currency' }).of(code);
    return name && name !== code ? ` · ${name}` : '';
  } catch {
    return '';
  }
}

type CurrencyFieldProps = Omit<TextFieldProps, 'select' | 'value' | 'onChange' | 'children'> & {
  value: string;
  onChange: (code: string) => void;
};

/** A choice of ISO 4217 currency, each listed by its code and name. */
export function CurrencyField({ value, onChange, ...rest }: CurrencyFieldProps) {
  return (
    <TextField
      select
      {...rest}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ select: { MenuProps: { slotProps: { paper: { sx: { maxHeight: 320 } } } } } }}
    >
      {CURRENCY_CODES.map((code) => (
        <MenuItem key={code} value={code}>
          {`${code}${currencyName(code)}`}
        </MenuItem>
      ))}
    </TextField>
  );
}
