/**
 * The URL holds what a screen shows (search filters, the selected budget, the budget
 * being edited, the batch being inspected), so a reload or a shared link restores the screen, Back
 * restores a list with its selection, and a signed-out deep link comes back after signing in.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { registerUser } from '../helpers/http';
import { formatCents } from '../../src/shared/money';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { loginViaUi, openPage, signedInPage, trpcApi, useBrowserAndServer } from './harness';

const app = useBrowserAndServer();

const SEED = [
  { postDate: '2024-01-05', description: 'Coffee Shop', amount: -450, category: 'Dining' },
  { postDate: '2024-01-10', description: 'Grocery Store', amount: -8235, category: 'Groceries' },
  { postDate: '2024-01-15', description: 'Paycheck', amount: 250000, category: 'Salary' },
  { postDate: '2024-02-03', description: 'Cinema', amount: -1800, category: 'Fun' },
];

async function seeded() {
  const session = await signedInPage(app.browser, app.server);
  const api = trpcApi(app.server, session.user.accessToken);
  const rows: Record<string, TransactionDto> = {};
  for (const tx of SEED) rows[tx.description] = await api.transactions.create.mutate(tx);
  return { ...session, api, rows };
}

const label = (tx: TransactionDto) => `${tx.description} ${formatCents(tx.amount)} on ${tx.postDate}`;
const checkbox = (page: Page, tx: TransactionDto) =>
  page.getByRole('checkbox', { name: `Select transaction ${label(tx)}`, exact: true });
const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Selected transactions' });
const descriptions = (page: Page) =>
  page.getByRole('table', { name: 'Transactions' }).locator('tbody tr td:nth-child(3)').allTextContents();

describe('URLs that restore the screen', () => {
  it('a reload of a filtered search shows the same filters and results', async () => {
    const { page, context, close, errors } = await seeded();
    await page.goto(`${app.server.url}/transactions?filters=open`);
    await page.getByRole('heading', { name: 'Transaction Search', level: 1 }).waitFor();
    await page.getByLabel('Start Date').fill('2024-01-01');
    await page.getByLabel('End Date').fill('2024-01-31');
    await page.getByText('Found 3 transactions').waitFor();
    await page.getByLabel('Description').fill('shop');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Found 1 transaction').waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('description')).toBe('shop');
    // The navigation bar still marks the screen as the current one.
    const current = page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]');
    await expect.poll(() => current.textContent()).toBe('Transactions');

    await page.reload();
    await page.getByText('Found 1 transaction').waitFor();
    // Folded into its summary line, which opens the form.
    const summary = page.getByRole('button', { name: /^Filters: / });
    expect(await summary.innerText()).toContain('2024-01-01 – 2024-01-31 · “shop” · 1 found');
    await summary.click();
    expect(await page.getByLabel('Start Date').inputValue()).toBe('2024-01-01');
    expect(await page.getByLabel('End Date').inputValue()).toBe('2024-01-31');
    expect(await page.getByLabel('Description').inputValue()).toBe('shop');
    await expect.poll(() => page.getByRole('table', { name: 'Transactions' }).getByText('Coffee Shop').count()).toBe(1);

    // The same URL in a new tab (a shared link) shows the same search.
    const shared = await context.newPage();
    await shared.goto(page.url());
    await shared.getByText('Found 1 transaction').waitFor();
    // The link was taken with the form open (the URL keeps that too).
    expect(await shared.getByLabel('Description').inputValue()).toBe('shop');
    expect(errors).toEqual([]);
    await close();
  });

  it('opens /budgets/$id/edit from a link, prefilled, and a reload stays there', async () => {
    const { page, close, api } = await seeded();
    const saved = await api.budgets.save.mutate({
      name: 'January 2024',
      startDate: '2024-01-01',
      endDate: '2024-01-31',
      lineItems: [{ name: 'Food', amount: 25000, type: 'Variable', relatedCategories: ['Groceries', 'Dining'] }],
    });
    await page.goto(`${app.server.url}/budgets/${saved.budget.id}/edit`);
    await page.getByRole('heading', { name: 'Edit Budget', level: 1 }).waitFor();
    await expect.poll(() => page.getByLabel('Budget Name').inputValue()).toBe('January 2024');
    expect(await page.getByLabel('Start Date').inputValue()).toBe('2024-01-01');
    expect(await page.getByRole('group', { name: 'Line item 1' }).getByLabel('Name').inputValue()).toBe('Food');
    await page.reload();
    await expect.poll(() => page.getByLabel('Budget Name').inputValue()).toBe('January 2024');
    // A budget that does not exist says so.
    await page.goto(`${app.server.url}/budgets/999999/edit`);
    await page.getByText('This budget does not exist (any more).').waitFor();
    await close();
  });

  it('Back restores the budget list with its selected budget and selected row; a reload keeps the budget', async () => {
    const { page, close, api, rows } = await seeded();
    const saved = await api.budgets.save.mutate({
      name: 'January',
      startDate: '2024-01-01',
      endDate: '2024-01-31',
      lineItems: [],
    });
    await page.goto(`${app.server.url}/`);
    await page.getByRole('button', { name: 'Select budget January' }).click();
    await page.getByRole('heading', { name: 'Selected Budget' }).waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('budget')).toBe(String(saved.budget.id));
    await checkbox(page, rows['Paycheck']).check();
    await toolbar(page).getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Selected Budget' }).waitFor();
    await toolbar(page).getByText('1 selected').waitFor();
    expect(await checkbox(page, rows['Paycheck']).isChecked()).toBe(true);

    await page.reload();
    await page.getByRole('heading', { name: 'Selected Budget' }).waitFor();
    await expect.poll(() => descriptions(page)).toHaveLength(3);
    await close();
  });

  it('Back restores the search with its results and selection', async () => {
    const { page, close, rows } = await seeded();
    await page.goto(`${app.server.url}/transactions?startDate=2024-02-01&endDate=2024-02-29`);
    await page.getByText('Found 1 transaction').waitFor();
    await checkbox(page, rows['Cinema']).check();
    await toolbar(page).getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
    await page.goBack();
    await page.getByText('Found 1 transaction').waitFor();
    expect(await page.getByRole('button', { name: /^Filters: / }).innerText()).toContain('2024-02-01 – 2024-02-29');
    await toolbar(page).getByText('1 selected').waitFor();
    await close();
  });

  it('a signed-out deep link goes to the login card and back to the same screen after signing in', async () => {
    const user = await registerUser(app.server.url);
    const { page, close } = await openPage(app.browser);
    const target = '/transactions?startDate=2024-01-01&endDate=2024-01-31&description=coffee';
    await page.goto(`${app.server.url}${target}`);
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    const login = new URL(page.url());
    expect(login.pathname).toBe('/login');
    expect(login.searchParams.get('redirect')).toBe(target);
    await loginViaUi(page, app.server.url, user.user.username, user.password, `${login.pathname}${login.search}`);
    await expect
      .poll(() => {
        const url = new URL(page.url());
        return `${url.pathname}${url.search}`;
      })
      .toBe(target);
    await page.getByText('Found 0 transactions').waitFor();
    expect(await page.getByRole('button', { name: /^Filters: / }).innerText()).toContain('“coffee”');
    // A redirect to another site is never followed.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    await loginViaUi(page, app.server.url, user.user.username, user.password, '/login?redirect=%2F%2Fevil.example%2F');
    await expect.poll(() => new URL(page.url()).host).toBe(new URL(app.server.url).host);
    await close();
  });

  it('the batch being inspected is in the URL: a reload shows it again, Clear Selection leaves it', async () => {
    const { page, close, api, user } = await seeded();
    await api.accounts.create.mutate({ name: 'Checking', type: 'checking', balance: 0 });
    const form = new FormData();
    form.append('account', 'Checking');
    form.append(
      'file',
      new Blob(['Date,Description,Amount\n2024-03-01,Bakery,-3.20\n2024-03-02,Bookshop,-12.00\n'], {
        type: 'text/csv',
      }),
      'march.csv',
    );
    const res = await fetch(`${app.server.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}` },
      body: form,
    });
    expect(res.ok).toBe(true);
    const { batchId } = (await res.json()) as { batchId: string };
    await page.goto(`${app.server.url}/upload`);
    await page.getByRole('table', { name: 'Transaction batches' }).getByText(batchId.slice(0, 8)).click();
    await page.getByRole('heading', { name: /^march\.csv — / }).waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('batch')).toBe(batchId);
    await page.reload();
    await page.getByRole('heading', { name: /^march\.csv — / }).waitFor();
    await expect.poll(() => page.getByRole('table', { name: 'Transactions' }).getByText('Bookshop').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear Selection' }).click();
    await page.getByRole('heading', { name: /^march\.csv — / }).waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('batch')).toBeNull();
    await close();
  });
});
