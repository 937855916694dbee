import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { registerUser } from '../helpers/http';
import { loginViaUi, openPage, savedDownload, signedInPage, trpcApi, useBrowserAndServer } from './harness';

/**
 * The buttons that take data out and bring it back: "Export CSV" on the Transactions screen
 * (the current results, with every filter) and, on the Profile screen, "Download all my data"
 * then "Restore from a file" into a fresh user (and the server's refusal shown when it refuses).
 */
const app = useBrowserAndServer();

async function saveDownload(page: Page, click: () => Promise<void>) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await savedDownload(file);
  return { name: file.suggestedFilename(), path, text: readFileSync(path, 'utf8') };
}

describe('Export CSV, download all my data, restore', () => {
  it('exports exactly the current results of the Transactions screen as CSV', async () => {
    const { close, page, user, errors } = await signedInPage(app.browser, app.server);
    try {
      const api = trpcApi(app.server, user.accessToken);
      await api.accounts.create.mutate({ name: 'Checking', type: 'checking' });
      const coffee = await api.transactions.create.mutate({
        postDate: '2024-03-05',
        description: 'Coffee, large',
        amount: -450,
        account: 'Checking',
        category: 'Dining',
      });
      const formula = await api.transactions.create.mutate({
        postDate: '2024-03-06',
        description: '=1+2',
        amount: 1000,
        account: 'Checking',
        category: 'Gifts',
      });
      const dinner = await api.transactions.create.mutate({
        postDate: '2024-03-07',
        description: 'Dinner',
        amount: -3000,
        account: 'Checking',
        category: 'Dining',
      });
      await api.transactions.create.mutate({
        postDate: '2024-04-01',
        description: 'Lunch',
        amount: -1200,
        account: 'Checking',
        category: 'Dining',
      });

      // A link with filters (as a report's bar makes): March, Dining, money out.
      const search = new URLSearchParams({
        startDate: '2024-03-01',
        endDate: '2024-03-31',
        categories: '["Dining"]',
        direction: 'out',
      });
      await page.goto(`${app.server.url}/transactions?${search}`);
      await page.getByText('Found 2 transactions', { exact: true }).waitFor();
      const csv = await saveDownload(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
      expect(csv.name).toBe('transactions-2024-03-01-to-2024-03-31.csv');
      expect(csv.text.split('\r\n')).toEqual([
        '\uFEFFDate,Description,Amount,Category,Type,Account,Split,Split of,Batch,ID',
        `2024-03-07,Dinner,-30.00,Dining,debit,Checking,,,,${dinner.id}`,
        `2024-03-05,"Coffee, large",-4.50,Dining,debit,Checking,,,,${coffee.id}`,
        '',
      ]);

      // Without the link's filters: the whole month, the formula cell guarded.
      await page.getByRole('button', { name: /^Filters: / }).click();
      await page.getByRole('button', { name: 'Clear Filters' }).click();
      await page.getByLabel('Start Date').fill('2024-03-01');
      await page.getByLabel('End Date').fill('2024-03-31');
      await page.getByText('Found 3 transactions', { exact: true }).waitFor();
      const all = await saveDownload(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
      expect(all.text.split('\r\n').slice(1, 4)).toEqual([
        `2024-03-07,Dinner,-30.00,Dining,debit,Checking,,,,${dinner.id}`,
        `2024-03-06,'=1+2,10.00,Gifts,credit,Checking,,,,${formula.id}`,
        `2024-03-05,"Coffee, large",-4.50,Dining,debit,Checking,,,,${coffee.id}`,
      ]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('downloads all data as a file and restores it into a fresh user; a second restore is refused with the reason', async () => {
    const owner = await signedInPage(app.browser, app.server);
    const fresh = await registerUser(app.server.url);
    const other = await openPage(app.browser);
    try {
      const api = trpcApi(app.server, owner.user.accessToken);
      await api.accounts.create.mutate({ name: 'Checking', type: 'checking', balance: 12345 });
      const big = await api.transactions.create.mutate({
        postDate: '2024-02-10',
        description: 'COSTCO',
        amount: -10000,
        account: 'Checking',
      });
      await api.transactions.split.mutate({
        id: big.id,
        splits: [
          { amount: -6000, category: 'Groceries' },
          { amount: -4000, category: 'Household' },
        ],
      });
      await api.transactions.create.mutate({
        postDate: '2024-02-11',
        description: 'Salary',
        amount: 250000,
        account: 'Checking',
        category: 'Salary',
      });

      await owner.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Profile', exact: true })
        .click();
      const file = await saveDownload(owner.page, () =>
        owner.page.getByRole('button', { name: 'Download all my data' }).click(),
      );
      expect(file.name).toMatch(/^budget-tracker-export-\d{4}-\d{2}-\d{2}\.json$/);
      const doc = JSON.parse(file.text);
      expect(doc).toMatchObject({ format: 'budget-tracker', version: 1 });
      expect(doc.transactions).toHaveLength(4);

      await loginViaUi(other.page, app.server.url, fresh.user.username, fresh.password, '/profile');
      await other.page.getByLabel('Restore file').setInputFiles(file.path);
      await other.page.getByText(/^Restored 4 transactions, 1 account/).waitFor();
      const restored = trpcApi(app.server, fresh.accessToken);
      const [account] = await restored.accounts.list.query();
      expect(account).toMatchObject({ name: 'Checking', openingBalance: 12345 });
      const rows = await restored.transactions.list.query({
        startDate: '2024-01-01',
        endDate: '2024-12-31',
      });
      expect(rows.map((r) => [r.description, r.amount, r.isSplit, r.parentTransactionId !== null]).sort()).toEqual(
        [
          ['COSTCO', -10000, true, false],
          ['COSTCO', -6000, false, true],
          ['COSTCO', -4000, false, true],
          ['Salary', 250000, false, false],
        ].sort(),
      );

      // The user now has data: the server refuses, and its reason is shown.
      await other.page.getByLabel('Restore file').setInputFiles(file.path);
      await other.page
        .getByRole('alert')
        .filter({ hasText: 'Failed to restore: A restore needs a user without data' })
        .waitFor();

      // A file that is no export: the server's 400 names the problem.
      await other.page.getByLabel('Restore file').setInputFiles({
        name: 'notes.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{"format":"something else"}'),
      });
      await other.page
        .getByRole('alert')
        .filter({ hasText: /^Failed to restore: .+/ })
        .waitFor();
      expect(owner.errors).toEqual([]);
      expect(other.errors.filter((e) => !/status of 409|status of 400/.test(e))).toEqual([]);
    } finally {
      await owner.close();
      await other.close();
    }
  });
});
