import { Box } from '@mui/material';
import { formatCents } from '../../../shared/money';

/**
 * Cents as value/100 with two decimals; money out is red with a minus sign. The red is
 * the theme's darker error shade in light mode (readable on a selected row) and the
 * lighter one in dark mode.
 */
export function Amount({ cents }: { cents: number }) {
  const negative = cents < 0;
  return (
    <Box
      component="span"
      sx={[
        { color: negative ? 'error.dark' : 'text.primary', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' },
        negative && ((theme) => theme.applyStyles('dark', { color: theme.palette.error.light })),
      ]}
    >
      {formatCents(cents)}
    </Box>
  );
}
