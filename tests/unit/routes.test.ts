import { describe, expect, it } from 'vitest';
import { NAV_LINKS, safeRedirect } from '../../src/client/routes';

describe('one route list', () => {
  it('gives the navigation bar every listed screen with its own path and place, before any router exists', () => {
    expect(NAV_LINKS).toEqual([
      { to: '/', label: 'Budgets', place: 'bar' },
      { to: '/plan', label: 'Plan', place: 'bar' },
      { to: '/envelopes', label: 'Envelopes', place: 'wide' },
      { to: '/categories', label: 'Categories', place: 'wide' },
      { to: '/accounts', label: 'Accounts', place: 'bar' },
      { to: '/upload', label: 'Upload', place: 'bar' },
      { to: '/create-budget', label: 'Create Budget', place: 'wide' },
      { to: '/transactions', label: 'Transactions', place: 'bar' },
      { to: '/reports', label: 'Reports', place: 'bar' },
      { to: '/rules', label: 'Rules', place: 'more' },
      { to: '/schedules', label: 'Schedules', place: 'more' },
      { to: '/rates', label: 'Rates', place: 'more' },
      { to: '/history', label: 'History', place: 'more' },
      { to: '/profile', label: 'Profile', place: 'bar' },
    ]);
  });

  it.each([
    [undefined, '/'],
    ['/categories', '/categories'],
    ['/transactions?startDate=2024-01-01', '/transactions?startDate=2024-01-01'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example', '/'],
    ['categories', '/'],
  ])('sends a sign-in back to %s as %s (this app only)', (target, expected) => {
    expect(safeRedirect(target)).toBe(expected);
  });
});
