import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  screenshotAndCheckWidth,
  signedInPage,
  trpcApi,
  useBrowserAndServer,
} from './harness';

/**
 * The account register (/accounts/$id) reached from the accounts list: running balances walked
 * back from the account's balance (its opening balance plus its rows, a split counted once, through
 * its parts) down to the opening balance, and reconciling with a statement, then adjusting the
 * account to match it.
 */
const app = useBrowserAndServer();

/** [date, amount, balance] of every register row shown, in order. */
function registerFigures(page: Page, name = 'Register') {
  return page
    .getByRole('table', { name, exact: true })
    .getByRole('row')
    .evaluateAll((rows) =>
      rows
        .map((row) => [...row.querySelectorAll('[role=cell]')].map((cell) => (cell as HTMLElement).innerText.trim()))
        .filter((cells) => cells.length > 0)
        .map((cells) => [cells[0], cells[3], cells[4]]),
    );
}

describe('Account register', () => {
  it('shows running balances newest first and reconciles with a statement', async () => {
    const { close, page, user, errors } = await signedInPage(app.browser, app.server);
    try {
      const api = trpcApi(app.server, user.accessToken);
      await api.accounts.create.mutate({
        name: 'Checking',
        type: 'checking',
        openingBalance: 92000,
        openingDate: '2024-01-01',
      });
      await api.accounts.create.mutate({ name: 'Other', type: 'savings', balance: 0 });
      const add = (postDate: string, description: string, amount: number, category = 'Misc', account = 'Checking') =>
        api.transactions.create.mutate({ postDate, description, amount, account, category });
      await add('2024-01-05', 'Salary', 50000, 'Salary');
      await add('2024-01-10', 'Groceries', -2000);
      await add('2024-01-12', 'Not this account', -999, 'Misc', 'Other');
      const costco = await add('2024-02-01', 'COSTCO', -10000);
      await api.transactions.split.mutate({
        id: costco.id,
        splits: [
          { amount: -6000, category: 'Groceries' },
          { amount: -4000, category: 'Household' },
        ],
      });
      await add('2024-03-01', 'Rent', -30000, 'Rent');

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload', exact: true }).click();
      await page.getByRole('link', { name: 'Register of Checking' }).click();
      await page.getByRole('heading', { name: 'Register: Checking', level: 1 }).waitFor();
      await page.getByText('Balance: $1,000.00').waitFor();
      await page.getByRole('button', { name: 'All', exact: true }).click();
      await page.getByText('6 transactions', { exact: true }).waitFor();
      expect(await registerFigures(page)).toEqual([
        ['2024-03-01', '−$300.00', '$1,000.00'],
        ['2024-02-01', '−$100.00', '$1,300.00'], // the split parent: the balance after its whole split
        ['2024-02-01', '−$40.00', '$1,300.00'],
        ['2024-02-01', '−$60.00', '$1,340.00'],
        ['2024-01-10', '−$20.00', '$1,400.00'],
        ['2024-01-05', '$500.00', '$1,420.00'],
        ['2024-01-01', '$920.00', '$920.00'],
      ]);
      expect(new URL(page.url()).searchParams.get('range')).toBe('All');

      // A custom range lists only its rows, still walking back from the account's balance.
      await page.getByLabel('Start Date').fill('2024-01-01');
      await page.getByLabel('End Date').fill('2024-01-31');
      await page.getByText('2 transactions', { exact: true }).waitFor();
      expect(await registerFigures(page)).toEqual([
        ['2024-01-10', '−$20.00', '$1,400.00'],
        ['2024-01-05', '$500.00', '$1,420.00'],
        ['2024-01-01', '$920.00', '$920.00'],
      ]);
      await expectNoSeriousA11yViolations(page, 'account register');
      await screenshotAndCheckWidth(page, 'register-1400');

      // The bank says 1,450.00 at the end of January: 50.00 more than the register.
      await page.getByLabel('Statement date').fill('2024-01-31');
      await page.getByLabel('Statement balance').fill('1450');
      await page.getByRole('button', { name: 'Reconcile', exact: true }).click();
      await page.getByText('Register balance on 2024-01-31: $1,400.00').waitFor();
      expect(await page.getByText('Difference: $50.00').isVisible()).toBe(true);
      await page.getByText('Transactions after 2024-01-31 (4)').waitFor();
      expect(await registerFigures(page, 'Transactions after the statement')).toEqual([
        ['2024-03-01', '−$300.00', '$1,000.00'],
        ['2024-02-01', '−$100.00', '$1,300.00'],
        ['2024-02-01', '−$40.00', '$1,300.00'],
        ['2024-02-01', '−$60.00', '$1,340.00'],
      ]);

      // The difference becomes an adjustment transaction on the statement's date.
      await page.getByRole('button', { name: 'Add adjustment and reconcile' }).click();
      await page
        .getByText(/^Reconciled: 1 cleared transactions marked reconciled; the balance is \$1,050\.00/)
        .waitFor();
      expect(await page.getByText('Difference: $0.00').isVisible()).toBe(true);
      await page.getByText('Balance: $1,050.00').waitFor();
      await expect
        .poll(() => registerFigures(page))
        .toEqual([
          ['2024-01-31', '$50.00', '$1,450.00'],
          ['2024-01-10', '−$20.00', '$1,400.00'],
          ['2024-01-05', '$500.00', '$1,420.00'],
          ['2024-01-01', '$920.00', '$920.00'],
        ]);
      const [checking] = (await api.accounts.list.query()).filter((a) => a.name === 'Checking');
      expect(checking.balance).toBe(105000);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('renders only the rows in view of a long register, and scrolls to the oldest', async () => {
    const { close, page, user, errors } = await signedInPage(app.browser, app.server);
    try {
      const api = trpcApi(app.server, user.accessToken);
      const account = await api.accounts.create.mutate({ name: 'Busy', type: 'checking', balance: 0 });
      const lines = ['Date,Description,Amount'];
      for (let i = 0; i < 1500; i += 1)
        lines.push(
          `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},Row ${i},-1.00`,
        );
      const form = new FormData();
      form.append('account', 'Busy');
      form.append('file', new Blob([lines.join('\n')], { type: 'text/csv' }), 'busy.csv');
      const res = await fetch(`${app.server.url}/api/upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${user.accessToken}` },
        body: form,
      });
      expect(res.status).toBe(201);

      await page.goto(`${app.server.url}/accounts/${account.id}?range=All`);
      await page.getByText('1500 transactions', { exact: true }).waitFor();
      const rendered = await page.getByRole('table', { name: 'Register' }).getByRole('row').count();
      expect(rendered).toBeLessThan(100);
      // The header, 1,500 rows and the opening balance below them.
      expect(await page.getByRole('table', { name: 'Register' }).getAttribute('aria-rowcount')).toBe('1502');
      await page.getByRole('rowgroup', { name: 'Register rows' }).evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await expect
        .poll(async () => (await registerFigures(page)).slice(-2))
        .toEqual([
          ['2024-01-01', '−$1.00', '−$1.00'],
          [account.openingDate, '$0.00', '$0.00'],
        ]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
