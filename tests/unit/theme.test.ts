import { describe, expect, it } from 'vitest';
import { reducedMotionTheme, theme, themeFor } from '../../src/client/theme/theme';

describe('themeFor: the motion preference', () => {
  it('keeps MUI transitions and ripples for a user who did not ask for reduced motion', () => {
    expect(themeFor(false)).toBe(theme);
    expect(theme.transitions.duration.enteringScreen).toBeGreaterThan(0);
    expect(theme.transitions.getAutoHeightDuration(200)).toBeGreaterThan(0);
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBeUndefined();
  });

  it('gives every transition 0 ms and turns ripples off for reduced motion, keeping the rest of the theme', () => {
    const reduced = themeFor(true);
    expect(reduced).toBe(reducedMotionTheme);
    expect(Object.values(reduced.transitions.duration).every((ms) => ms === 0)).toBe(true);
    expect(reduced.transitions.getAutoHeightDuration(200)).toBe(0);
    expect(reduced.transitions.create('opacity')).toMatch(/^opacity 0ms /);
    expect(reduced.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
    expect(reduced.breakpoints.values).toEqual(theme.breakpoints.values);
    expect(reduced.components?.MuiButton).toEqual(theme.components?.MuiButton);
    expect(reduced.typography.h1.fontSize).toBe(theme.typography.h1.fontSize);
  });
});
