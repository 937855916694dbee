import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  screenshotAndCheckWidth,
  signedInPage,
  trpcApi,
  useBrowserAndServer,
  type TrpcApi,
} from './harness';

/**
 * The Reports screen against figures computed by hand from the rows below (January to March
 * 2024): the table view shows exactly them, and a bar, a table figure or a payee opens the
 * Transactions screen on exactly the rows it sums.
 */
const app = useBrowserAndServer();

async function seed(api: TrpcApi) {
  await api.accounts.create.mutate({ name: 'Checking', type: 'checking' });
  await api.accounts.create.mutate({ name: 'Savings', type: 'savings' });
  const add = (postDate: string, description: string, amount: number, category?: string, account = 'Checking') =>
    api.transactions.create.mutate({ postDate, description, amount, account, ...(category ? { category } : {}) });
  for (const month of ['01', '02', '03']) {
    await add(`2024-${month}-01`, 'ACME PAYROLL', 300000, 'Salary');
    await add(`2024-${month}-02`, 'LANDLORD LTD', -120000, 'Rent');
  }
  await add('2024-01-05', 'TESCO STORES 1234', -5000, 'Groceries');
  await add('2024-01-19', 'TESCO STORES 99', -3000, 'Groceries');
  await add('2024-01-20', 'Cafe Luna', -2500, 'Dining');
  await add('2024-01-25', 'Mystery shop', -1000);
  await add('2024-02-07', 'Tesco Stores 5678', -4000, 'Groceries');
  const costco = await add('2024-02-10', 'COSTCO 77', -10000, 'Groceries');
  await api.transactions.split.mutate({
    id: costco.id,
    splits: [
      { amount: -6000, category: 'Groceries' },
      { amount: -4000, category: 'Dining' },
    ],
  });
  await add('2024-02-14', 'Cafe Luna', 500, 'Dining');
  await add('2024-03-09', 'TESCO STORES 42', -7000, 'Groceries', 'Savings');
}

/** The text of every cell of a table, row by row (header and footer included). */
function tableCells(page: Page, name: string) {
  return page
    .getByRole('table', { name, exact: true })
    .locator('tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...(row as HTMLTableRowElement).cells].map((cell) => cell.innerText.trim())),
    );
}

/** "Found 2 transactions", with what splits it includes in brackets ("(1 part of a split)"). */
async function expectFound(page: Page, count: number) {
  await page.getByText(new RegExp(`^Found ${count} transactions?( \\(.*\\))?$`)).waitFor();
}

const RANGE = 'preset=Custom&startDate=2024-01-01&endDate=2024-03-31';

describe('Reports', () => {
  it('shows hand-computed figures in the table view, for all accounts and for one', async () => {
    const { close, page, user, errors } = await signedInPage(app.browser, app.server);
    try {
      await seed(trpcApi(app.server, user.accessToken));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports', exact: true }).click();
      await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
      await page.goto(`${app.server.url}/reports?${RANGE}`);
      await page.getByTestId('spending-chart').locator('svg').first().waitFor();
      await page.getByTestId('cashflow-chart').locator('svg').first().waitFor();
      await page.getByLabel('Show as table').check();

      expect(await tableCells(page, 'Spending by category')).toEqual([
        ['Month', 'Rent', 'Groceries', 'Dining', 'Uncategorized', 'Total'],
        ['Jan 2024', '$1,200.00', '$80.00', '$25.00', '$10.00', '$1,315.00'],
        ['Feb 2024', '$1,200.00', '$100.00', '$35.00', '$0.00', '$1,335.00'],
        ['Mar 2024', '$1,200.00', '$70.00', '$0.00', '$0.00', '$1,270.00'],
        ['Total', '$3,600.00', '$250.00', '$60.00', '$10.00', '$3,920.00'],
      ]);
      expect(await tableCells(page, 'Income and expenses')).toEqual([
        ['Month', 'Income', 'Expenses', 'Net'],
        ['Jan 2024', '$3,000.00', '$1,315.00', '$1,685.00'],
        ['Feb 2024', '$3,005.00', '$1,340.00', '$1,665.00'],
        ['Mar 2024', '$3,000.00', '$1,270.00', '$1,730.00'],
        ['Total', '$9,005.00', '$3,925.00', '$5,080.00'],
      ]);
      expect(await tableCells(page, 'Top payees')).toEqual([
        ['Payee', 'Transactions', 'Total'],
        ['ACME PAYROLL', '3', '$9,000.00'],
        ['LANDLORD LTD', '3', '−$3,600.00'],
        ['TESCO STORES', '4', '−$190.00'],
        ['COSTCO', '2', '−$100.00'],
        ['Cafe Luna', '2', '−$20.00'],
        ['Mystery shop', '1', '−$10.00'],
      ]);
      await expectNoSeriousA11yViolations(page, 'reports (table view)');
      await screenshotAndCheckWidth(page, 'reports-table-1400');

      // The table view survives a reload (it is in the URL); the account filter narrows every figure.
      await page.reload();
      await page.getByRole('table', { name: 'Income and expenses' }).waitFor();
      await page.getByRole('combobox', { name: 'Account' }).click();
      await page.getByRole('option', { name: 'Savings' }).click();
      await expect
        .poll(() => tableCells(page, 'Income and expenses'))
        .toEqual([
          ['Month', 'Income', 'Expenses', 'Net'],
          ['Jan 2024', '$0.00', '$0.00', '$0.00'],
          ['Feb 2024', '$0.00', '$0.00', '$0.00'],
          ['Mar 2024', '$0.00', '$70.00', '−$70.00'],
          ['Total', '$0.00', '$70.00', '−$70.00'],
        ]);
      expect(await tableCells(page, 'Spending by category')).toEqual([
        ['Month', 'Groceries', 'Total'],
        ['Jan 2024', '$0.00', '$0.00'],
        ['Feb 2024', '$0.00', '$0.00'],
        ['Mar 2024', '$70.00', '$70.00'],
        ['Total', '$70.00', '$70.00'],
      ]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('opens the Transactions screen on exactly the rows of a bar, a table figure or a payee', async () => {
    const { close, page, user, errors } = await signedInPage(app.browser, app.server);
    try {
      await seed(trpcApi(app.server, user.accessToken));
      await page.goto(`${app.server.url}/reports?${RANGE}`);

      // February's Groceries bar (second series, second month): the plain row and the split part, not the parent.
      await page.getByTestId('spending-chart').locator('g[data-series="s1"] rect').nth(1).click();
      await page.waitForURL(/\/transactions\?/);
      await expectFound(page, 2);
      const url = new URL(page.url());
      expect(url.searchParams.get('startDate')).toBe('2024-02-01');
      expect(url.searchParams.get('endDate')).toBe('2024-02-29');
      expect(url.searchParams.get('counted')).toBe('true');
      await page.getByText('Split parents left out (as report totals count)').waitFor();
      expect(await page.getByText('Net: −$100.00').isVisible()).toBe(true);

      // January's expenses bar: the five rows of money out.
      await page.goBack();
      await page.getByTestId('cashflow-chart').locator('g[data-series="expenses"] rect').first().click();
      await page.waitForURL(/direction/);
      await expectFound(page, 5);
      await page.getByText('Money out only').waitFor();
      expect(await page.getByText('Net: −$1,315.00').isVisible()).toBe(true);

      // A payee: every row of its spelling variants over the range.
      await page.goBack();
      await page.getByRole('link', { name: 'TESCO STORES', exact: true }).click();
      await expectFound(page, 4);
      await page.getByText('Payee: TESCO STORES').waitFor();
      expect(await page.getByText('Net: −$190.00').isVisible()).toBe(true);

      // A figure of the table view (March's net, Checking only).
      await page.goto(`${app.server.url}/reports?${RANGE}&account=Checking&table=true`);
      await page.getByRole('table', { name: 'Income and expenses' }).getByRole('link', { name: '$1,800.00' }).click();
      await expectFound(page, 2);
      expect(await page.getByText('Net: +$1,800.00').isVisible()).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('is readable in dark mode', async () => {
    const { close, page, user, errors } = await signedInPage(app.browser, app.server, 1400, 900, {
      colorScheme: 'dark',
    });
    try {
      await seed(trpcApi(app.server, user.accessToken));
      await page.goto(`${app.server.url}/reports?${RANGE}`);
      await page.getByTestId('spending-chart').locator('g[data-series="s0"] rect').first().waitFor();
      await expectNoSeriousA11yViolations(page, 'reports (dark, charts)');
      await screenshotAndCheckWidth(page, 'reports-dark-1400');
      // The navigation bar fits the narrowest width that shows it inline; charts fit a phone.
      for (const width of [1200, 576]) {
        await page.setViewportSize({ width, height: 900 });
        await page.getByTestId('cashflow-chart').locator('g[data-series="income"] rect').first().waitFor();
        await screenshotAndCheckWidth(page, `reports-dark-${width}`);
      }
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
