import { GlobalStyles } from '@mui/material';
import { alpha, darken, lighten, type Theme } from '@mui/material/styles';
import { memo } from 'react';

/**
 * The styles of the transaction table's rows, as one style sheet for every row. The rows are plain
 * elements with these class names rather than MUI components: a row scrolled into the virtual window
 * then costs a few DOM nodes, not the style resolution of a dozen styled components (at 25,000 rows
 * the window is refilled every frame while scrolling fast). The look follows MUI's small table cell,
 * checkbox, outlined native select and outlined chip, in both colour schemes. Amounts and the
 * category source mark (also shown in the cards and elsewhere) use it too: RowStyles is in the app shell.
 */
export const ROW_CLASS = {
  row: 'bt-tx-row',
  cell: 'bt-tx-cell',
  checkCell: 'bt-tx-check-cell',
  check: 'bt-tx-check',
  select: 'bt-tx-select',
  chip: 'bt-tx-chip',
  chipPrimary: 'bt-tx-chip-primary',
  line: 'bt-tx-line',
  lineTight: 'bt-tx-line-tight',
  text: 'bt-tx-text',
  nowrap: 'bt-tx-nowrap',
  date: 'bt-tx-date',
  right: 'bt-tx-right',
  amount: 'bt-amount',
  negative: 'bt-amount-negative',
  mark: 'bt-source-mark',
  nested: 'bt-tx-nested',
  toggle: 'bt-tx-toggle',
  link: 'bt-tx-link',
  muted: 'bt-tx-muted',
} as const;

function rowCss(theme: Theme) {
  // createTheme keeps each colour scheme's palette here (the Theme type does not declare it).
  const schemes = (theme as Theme & { colorSchemes?: Partial<Record<'light' | 'dark', { palette: Theme['palette'] }>> })
    .colorSchemes;
  const light = schemes?.light?.palette ?? theme.palette;
  const dark = schemes?.dark?.palette ?? theme.palette;
  return {
    ...cellCss(theme),
    ...controlCss(theme),
    ...schemeCss(light, 'light'),
    ...theme.applyStyles('dark', schemeCss(dark, 'dark')),
  };
}

/** The layout of the rows, their cells and the text in them. */
function cellCss(theme: Theme) {
  const c = ROW_CLASS;
  return {
    [`.${c.row}`]: { height: 53, verticalAlign: 'middle' },
    [`.${c.cell}`]: {
      ...theme.typography.body2,
      padding: '6px 16px',
      textAlign: 'left' as const,
      overflow: 'hidden',
    },
    [`.${c.right}`]: { textAlign: 'right' as const },
    // A date may run into the next cell's padding (as MUI's cells let it) rather than be cut.
    [`.${c.date}`]: { whiteSpace: 'nowrap' as const, overflow: 'visible' },
    [`.${c.nowrap}`]: { whiteSpace: 'nowrap' as const, textOverflow: 'ellipsis' },
    [`.${c.checkCell}`]: { padding: '0 0 0 4px', width: 48 },
    [`.${c.check}`]: { width: 18, height: 18, margin: 12, cursor: 'pointer', verticalAlign: 'middle' },
    [`.${c.line}`]: { display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 },
    // The category cell's line (a class, not an inline style: rows are built every frame while scrolling).
    [`.${c.lineTight}`]: { gap: 4 },
    // The category select keeps a readable width beside a suggestion chip, which shortens instead.
    [`.${c.lineTight} > .${c.select}`]: { flex: '1 0 96px' },
    [`.${c.text}`]: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' as const },
    // A split's part sits beneath its original, indented and marked as belonging to it.
    [`.${c.nested}`]: { paddingLeft: 44, position: 'relative' as const },
    [`.${c.nested}::before`]: {
      content: '"↳"',
      position: 'absolute' as const,
      left: 22,
      top: '50%',
      transform: 'translateY(-50%)',
    },
    [`.${c.muted}`]: { fontSize: '0.8125rem' },
    [`.${c.amount}`]: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' as const },
  };
}

/** The layout of the controls in a row: selects, chips, the parts toggle and the category source mark. */
function controlCss(theme: Theme) {
  const c = ROW_CLASS;
  return {
    [`.${c.select}`]: {
      font: 'inherit',
      fontSize: '0.875rem',
      width: '100%',
      minWidth: 0,
      padding: '7px 8px',
      borderWidth: 1,
      borderStyle: 'solid',
      borderRadius: theme.shape.borderRadius,
      background: 'transparent',
      color: 'inherit',
      cursor: 'pointer',
    },
    [`.${c.chip}`]: {
      display: 'inline-flex',
      alignItems: 'center',
      flexShrink: 0,
      height: 24,
      padding: '0 8px',
      borderWidth: 1,
      borderStyle: 'solid',
      borderRadius: 12,
      fontSize: '0.8125rem',
      whiteSpace: 'nowrap' as const,
    },
    [`.${c.toggle}`]: {
      font: 'inherit',
      fontSize: '0.875rem',
      width: '100%',
      padding: '7px 8px',
      textAlign: 'left' as const,
      whiteSpace: 'nowrap' as const,
      overflow: 'hidden',
      textOverflow: 'ellipsis',
      borderWidth: 1,
      borderStyle: 'solid',
      borderRadius: theme.shape.borderRadius,
      background: 'transparent',
      cursor: 'pointer',
    },
    [`.${c.mark}`]: {
      display: 'inline-flex',
      flexShrink: 0,
      fontSize: '0.7rem',
      fontWeight: 600,
      lineHeight: 1,
      borderWidth: 1,
      borderStyle: 'solid',
      borderRadius: theme.shape.borderRadius,
      padding: '2px 4px',
    },
  };
}

/** Colours per scheme, under `body` so their keys never replace the layout rules in one object. */
function schemeCss(palette: Theme['palette'], mode: 'light' | 'dark') {
  const c = ROW_CLASS;
  return {
    [`body .${c.row}`]: { color: palette.text.primary },
    [`body .${c.row}:hover`]: { backgroundColor: palette.action.hover },
    [`body .${c.row}[aria-selected="true"]`]: {
      backgroundColor: alpha(palette.primary.main, palette.action.selectedOpacity),
    },
    [`body .${c.row}[aria-selected="true"]:hover`]: {
      backgroundColor: alpha(palette.primary.main, palette.action.selectedOpacity + palette.action.hoverOpacity),
    },
    [`body .${c.cell}`]: {
      borderBottom: `1px solid ${mode === 'light' ? lighten(alpha(palette.divider, 1), 0.88) : darken(alpha(palette.divider, 1), 0.68)}`,
    },
    [`body .${c.check}`]: { accentColor: palette.primary.main },
    [`body .${c.select}`]: {
      borderColor: mode === 'light' ? 'rgba(0, 0, 0, 0.23)' : 'rgba(255, 255, 255, 0.23)',
      colorScheme: mode,
    },
    [`body .${c.select}:hover`]: { borderColor: palette.text.primary },
    [`body .${c.select}:focus-visible, body .${c.check}:focus-visible`]: {
      outline: `2px solid ${palette.primary.main}`,
      outlineOffset: 1,
    },
    [`body .${c.chip}`]: { borderColor: mode === 'light' ? '#bdbdbd' : '#616161', color: palette.text.primary },
    [`body .${c.chipPrimary}`]: { borderColor: alpha(palette.primary.main, 0.5), color: palette.primary.main },
    [`body .${c.amount}`]: { color: palette.text.primary },
    // Dark: a lighter red than error.light, which falls under 4.5:1 on a selected row under the pointer.
    [`body .${c.negative}`]: { color: mode === 'light' ? palette.error.dark : '#ef9a9a' },
    [`body .${c.mark}`]: { color: palette.text.secondary, borderColor: palette.divider },
    [`body .${c.nested}::before`]: { color: palette.text.secondary },
    [`body .${c.toggle}`]: {
      color: palette.primary.main,
      borderColor: mode === 'light' ? 'rgba(0, 0, 0, 0.23)' : 'rgba(255, 255, 255, 0.23)',
    },
    [`body .${c.toggle}:hover`]: { backgroundColor: palette.action.hover },
    [`body .${c.toggle}:focus-visible`]: { outline: `2px solid ${palette.primary.main}`, outlineOffset: 1 },
    [`body .${c.link}`]: { color: palette.primary.main },
    [`body .${c.link}:focus-visible`]: { outline: `2px solid ${palette.primary.main}`, outlineOffset: 1 },
    [`body .${c.muted}`]: { color: palette.text.secondary },
  };
}

/** The rows' style sheet; renders once (no props), however often the table re-renders. */
export const RowStyles = memo(function RowStyles() {
  return <GlobalStyles styles={rowCss} />;
});
