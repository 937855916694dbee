import { createTheme, type Theme, type ThemeOptions } from '@mui/material/styles';

declare module '@mui/material/styles' {
  interface BreakpointOverrides {
    xxl: true;
  }
}

/** The layout breakpoints: 576, 768, 992, 1200, 1400. */
export const breakpoints = { xs: 0, sm: 576, md: 768, lg: 992, xl: 1200, xxl: 1400 } as const;

/** The focus ring's colour per scheme: the primary colour, at least 3:1 against the page and paper of that scheme. */
const FOCUS_RING = { light: '#1565c0', dark: '#90caf9' } as const;

/**
 * A visible outline on whatever holds keyboard focus, in both schemes, instead of MUI's ripple alone: native
 * elements by `:focus-visible`, MUI's button-like controls (checkboxes, switches, chips, menu items, icon buttons)
 * by the `Mui-focusVisible` class ButtonBase sets, since their real input is invisible. Text fields show the
 * ring around their outlined box, where the eye looks, as well as on the input itself.
 */
function focusRingStyles(theme: Theme) {
  // Under `html`, so the ring outranks the `outline: 0` of MUI's own class rules (ButtonBase, InputBase).
  const ring = (color: string) => ({
    'html *:focus-visible, html .Mui-focusVisible': { outline: `2px solid ${color}`, outlineOffset: 2 },
    // A field rings its box, and its input too while the field has focus: a date input's focus may sit in its
    // calendar button, which neither :focus nor :focus-visible of the input sees.
    'html .MuiInputBase-input:focus, html .MuiInputBase-root.Mui-focused > .MuiInputBase-input': {
      outline: `2px solid ${color}`,
      outlineOffset: -2,
    },
    'html .MuiInputBase-root.Mui-focused': { outline: `2px solid ${color}`, outlineOffset: 2 },
    // A menu item or a table row is drawn inside its container, where an outer ring would be cut off.
    'html .MuiMenuItem-root:focus-visible, html .MuiMenuItem-root.Mui-focusVisible, html tr:focus-visible, html td:focus-visible':
      { outlineOffset: -2 },
  });
  return [ring(FOCUS_RING.light), theme.applyStyles('dark', ring(FOCUS_RING.dark))];
}

const options = {
  breakpoints: { values: breakpoints },
  colorSchemes: {
    light: {
      palette: {
        primary: { main: '#1565c0' },
        secondary: { main: '#6a1b9a' },
        background: { default: '#f5f7fa' },
      },
    },
    dark: {
      palette: {
        primary: { main: '#90caf9' },
        secondary: { main: '#ce93d8' },
      },
    },
  },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: { fontSize: '1.75rem', fontWeight: 600 },
    h2: { fontSize: '1.4rem', fontWeight: 600 },
    h3: { fontSize: '1.2rem', fontWeight: 600 },
  },
  components: {
    MuiCssBaseline: { styleOverrides: (theme) => focusRingStyles(theme) },
    MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none' } } },
    MuiTextField: { defaultProps: { size: 'small' } },
    MuiFormControl: { defaultProps: { size: 'small' } },
    // MUI's unselected toggle text (action.active, 54 % black) has 4.4:1 on its hover background, under WCAG's 4.5:1
    // (axe found it once no ripple span covered the button); text.secondary (60 %) has 5.5:1.
    MuiToggleButton: { styleOverrides: { root: ({ theme }) => ({ color: theme.palette.text.secondary }) } },
  },
} satisfies ThemeOptions;

export const theme = createTheme(options);

/** The media query of a user who asked their system for less motion. */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/**
 * The theme for a user who asked for reduced motion: every MUI transition (fades, grows, collapses, slides, the
 * outlines and labels of fields, also those that name their own duration) takes 0 ms, menus and popovers open at once instead of growing, and buttons make no
 * ripple. Spinners still turn: they say something is loading.
 */
export const reducedMotionTheme = createTheme({
  ...options,
  transitions: {
    duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 },
    getAutoHeightDuration: () => 0,
    // Some components pass their own milliseconds (the outline's notch: 100 ms after 50 ms).
    create: (props: string | string[] = ['all'], transition: { easing?: string } = {}) =>
      theme.transitions.create(props, { easing: transition.easing, duration: 0, delay: 0 }),
  },
  components: {
    ...options.components,
    MuiButtonBase: { defaultProps: { disableRipple: true } },
  },
});

/** The theme for the user's motion preference (`matchMedia(REDUCED_MOTION_QUERY).matches`). */
export function themeFor(reducedMotion: boolean) {
  return reducedMotion ? reducedMotionTheme : theme;
}
