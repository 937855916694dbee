import type { SxProps, Theme } from '@mui/material';
import type { AvailableTone } from '../../../shared/plan/view';

/** A style computed from the theme, usable alone or inside an `sx` array. */
type ThemedStyle = Extract<SxProps<Theme>, (theme: Theme) => unknown>;

/**
 * The colour of an amount that says how it stands: green when there is money, grey at zero, red when
 * overspent or short. The darker shades keep AA contrast on light paper, the lighter ones on dark.
 */
export function toneSx(tone: AvailableTone): ThemedStyle {
  return (theme) => {
    if (tone === 'zero') return { color: theme.palette.text.secondary };
    const colour = tone === 'positive' ? 'success' : 'error';
    return { color: theme.palette[colour].dark, ...theme.applyStyles('dark', { color: theme.palette[colour].light }) };
  };
}

/** Figures line up by their digits. */
export const FIGURE_SX = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;
