import { describe, expect, it } from 'vitest';
import { NAV_LINKS, safeRedirect } from '../../src/client/routes';

describe('one route list', () => {
  it('gives the navigation bar every listed screen with its own path, before any router exists', () => {
    expect(NAV_LINKS).toEqual([
      { to: '/', label: 'Budgets' },
      { to: '/plan', label: 'Plan' },
      { to: '/envelopes', label: 'Envelopes' },
      { to: '/categories', label: 'Categories' },
      { to: '/accounts', label: 'Accounts' },
      { to: '/upload', label: 'Upload' },
      { to: '/create-budget', label: 'Create Budget' },
      { to: '/transactions', label: 'Transactions' },
      { to: '/reports', label: 'Reports' },
      { to: '/rules', label: 'Rules' },
      { to: '/schedules', label: 'Schedules' },
      { to: '/history', label: 'History' },
      { to: '/profile', label: 'Profile' },
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
