import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatCents } from '../../src/shared/money';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { useBrowserAndServer, trpcApi, expectNoSeriousA11yViolations, screenshotAndCheckWidth, signedInPage, type TrpcApi } from './harness';

const app = useBrowserAndServer();

const apiFor = (token: string) => trpcApi(app.server, token);
type Api = TrpcApi;

const SEED = [
  { postDate: '2024-01-05', description: 'Coffee Shop', amount: -450, category: 'Dining', account: 'Checking' },
  { postDate: '2024-01-10', description: 'Grocery Store', amount: -8235, category: 'Groceries', account: 'Checking' },
  { postDate: '2024-01-15', description: 'Paycheck', amount: 250000, category: 'Salary', account: 'Savings' },
  { postDate: '2024-02-01', description: 'Coffee Beans', amount: -1299, category: 'Groceries', account: 'Savings' },
  { postDate: '2024-02-10', description: 'Electric bill', amount: -6000, account: 'Checking' },
  { postDate: '2023-12-31', description: 'Old purchase', amount: -100, category: 'Dining', account: 'Checking' },
];

/** A signed-in page whose user owns two accounts and the SEED transactions. */
async function seededSession(width = 1400) {
  const session = await signedInPage(app.browser, app.server, width);
  const api = apiFor(session.user.accessToken);
  await api.accounts.create.mutate({ name: 'Checking', type: 'checking', balance: 0 });
  await api.accounts.create.mutate({ name: 'Savings', type: 'savings', balance: 0 });
  const rows: Record<string, TransactionDto> = {};
  for (const tx of SEED) rows[tx.description] = await api.transactions.create.mutate(tx);
  return { ...session, api, rows };
}

async function allTransactions(api: Api): Promise<TransactionDto[]> {
  return api.transactions.list.query({ startDate: '1900-01-01', endDate: '2100-12-31' });
}

/** Options of the open MUI listbox (native selects in the rows also hold options). */
const pick = (page: Page) => page.getByRole('listbox');
const banner = (page: Page) => page.getByText(/^Found \d+ transactions$/);
const table = (page: Page) => page.getByRole('table', { name: 'Transactions' });
const rowLabel = (tx: TransactionDto) =>
  `${tx.description} ${formatCents(tx.amount)} on ${tx.postDate}${tx.parentTransactionId !== null ? ' (split part)' : ''}`;
const checkbox = (page: Page, tx: TransactionDto) => page.getByRole('checkbox', { name: `Select transaction ${rowLabel(tx)}`, exact: true });

/** Waits for the answer of a search over exactly this date range. */
function searchAnswer(page: Page, start: string, end: string) {
  return page.waitForResponse((res) => {
    const url = decodeURIComponent(res.url());
    return url.includes('transactions.list') && url.includes(`"startDate":"${start}"`) && url.includes(`"endDate":"${end}"`);
  });
}

async function search(page: Page, start = '2024-01-01', end = '2024-02-29') {
  // The URL carries the search's filters (issue 15): compare the path only.
  if (new URL(page.url()).pathname !== '/transactions') {
    await page.goto(`${app.server.url}/transactions`);
    await page.getByRole('heading', { name: 'Transaction Search', level: 1 }).waitFor();
    // It opens on this month and searches at once.
    await banner(page).waitFor();
  }
  const answered = searchAnswer(page, start, end);
  await page.getByLabel('Start Date').fill(start);
  await page.getByLabel('End Date').fill(end);
  await answered;
  await banner(page).waitFor();
}

async function bannerText(page: Page) {
  return (
    (await page
      .getByRole('status')
      .filter({ hasText: /^Found/ })
      .textContent()) ?? ''
  );
}

/** Description cells in display order (the chip text left out). */
async function descriptions(page: Page): Promise<string[]> {
  return table(page)
    .locator('tbody tr[aria-rowindex]')
    .evaluateAll((rows) => rows.map((row) => row.children[2].querySelector('span[title]')?.textContent ?? ''));
}

describe('Transaction Search', () => {
  it('searches by itself once both dates are set, by every filter via Search, and clears', async () => {
    const { page, context, errors } = await seededSession();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transactions', exact: true }).click();
    const searchButton = page.getByRole('button', { name: 'Search', exact: true });
    // It opens on this month (nothing seeded there), searched at once.
    await banner(page).waitFor();
    expect(await page.getByLabel('Start Date').inputValue()).toMatch(/^\d{4}-\d{2}-01$/);
    expect(await bannerText(page)).toBe('Found 0 transactionsTotal: 0.00 Credit');
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    expect(await searchButton.isDisabled()).toBe(true);
    await page.getByLabel('Start Date').fill('2024-01-01');
    expect(await searchButton.isDisabled()).toBe(true);

    // Hold the answer to see 'Searching...'.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/trpc/transactions.list**', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('End Date').fill('2024-02-29');
    await page.getByRole('button', { name: 'Searching...' }).waitFor();
    expect(await page.getByRole('button', { name: 'Searching...' }).isDisabled()).toBe(true);
    release();
    await banner(page).waitFor();
    await page.unroute('**/trpc/transactions.list**');
    expect(await bannerText(page)).toBe('Found 5 transactionsTotal: 2,340.16 Credit');
    // Default order: newest first. Money out is red with a minus sign.
    expect(await descriptions(page)).toEqual(['Electric bill', 'Coffee Beans', 'Paycheck', 'Grocery Store', 'Coffee Shop']);
    const negative = table(page).getByText('-82.35', { exact: true });
    const [r, g] = (await negative.evaluate((el) => getComputedStyle(el).color)).match(/\d+/g)!.map(Number);
    expect(r).toBeGreaterThan(g);
    expect(await table(page).getByText('2,500.00', { exact: true }).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page, 'transaction search with results');
    await screenshotAndCheckWidth(page, 'transactions-search-1400');

    // Categories (including 'uncategorized').
    await page.getByLabel('Categories').fill('Din');
    await pick(page).getByRole('option', { name: 'Dining' }).click();
    await page.getByLabel('Categories').fill('uncat');
    await pick(page).getByRole('option', { name: 'Uncategorized' }).click();
    await page.keyboard.press('Escape');
    await searchButton.click();
    await expect.poll(() => descriptions(page)).toEqual(['Electric bill', 'Coffee Shop']);
    expect(await bannerText(page)).toBe('Found 2 transactionsTotal: 64.50 Debit');
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    expect(await banner(page).count()).toBe(0);
    expect(await page.getByLabel('Start Date').inputValue()).toBe('');

    // Account.
    await search(page);
    await page.getByRole('combobox', { name: 'Account' }).click();
    await pick(page).getByRole('option', { name: 'Savings' }).click();
    await searchButton.click();
    await expect.poll(() => descriptions(page)).toEqual(['Coffee Beans', 'Paycheck']);

    // Description (case-insensitive substring) with the account reset.
    await page.getByRole('combobox', { name: 'Account' }).click();
    await pick(page).getByRole('option', { name: 'All accounts' }).click();
    await page.getByLabel('Description').fill('coffee');
    await page.getByLabel('Description').press('Enter');
    await expect.poll(() => descriptions(page)).toEqual(['Coffee Beans', 'Coffee Shop']);
    expect(await bannerText(page)).toBe('Found 2 transactionsTotal: 17.49 Debit');

    // Min and max amounts (decimals, on the magnitude).
    await page.getByLabel('Description').fill('');
    await page.getByLabel('Min Amount').fill('10');
    await page.getByLabel('Max Amount').fill('82.35');
    await searchButton.click();
    await expect.poll(() => descriptions(page)).toEqual(['Electric bill', 'Coffee Beans', 'Grocery Store']);
    await page.getByLabel('Max Amount').fill('82.34');
    await searchButton.click();
    await expect.poll(() => descriptions(page)).toEqual(['Electric bill', 'Coffee Beans']);

    await page.getByRole('button', { name: 'Clear Filters' }).click();
    expect(await banner(page).count()).toBe(0);
    expect(await page.getByLabel('Min Amount').inputValue()).toBe('');
    expect(await searchButton.isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps a failed search quiet (only logged)', async () => {
    const { page, context, errors } = await seededSession();
    await page.goto(`${app.server.url}/transactions`);
    await page.route('**/trpc/transactions.list**', (route) => route.abort());
    await page.getByLabel('Start Date').fill('2024-01-01');
    await page.getByLabel('End Date').fill('2024-02-29');
    await expect.poll(() => errors.some((e) => e.includes('Transaction search failed'))).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Search', exact: true }).isEnabled()).toBe(true);
    await context.close();
  });

  it('is usable at 576 px', async () => {
    const { page, context } = await seededSession(576);
    await search(page);
    await page.getByRole('checkbox', { name: /^Select transaction Paycheck/ }).check();
    await page.getByRole('toolbar', { name: 'Selected transactions' }).waitFor();
    await screenshotAndCheckWidth(page, 'transactions-search-576');
    await expectNoSeriousA11yViolations(page, 'transaction search at 576 px');
    await context.close();
  });
});

describe('Transaction table', () => {
  it('sorts by each column and edits category and type inline at once', async () => {
    const { page, context, api, rows, errors } = await seededSession();
    await search(page);
    const head = table(page).locator('thead');
    await head.getByRole('button', { name: 'Amount' }).click();
    expect(await descriptions(page)).toEqual(['Paycheck', 'Coffee Shop', 'Coffee Beans', 'Electric bill', 'Grocery Store']);
    await head.getByRole('button', { name: 'Amount' }).click();
    expect(await descriptions(page)).toEqual(['Grocery Store', 'Electric bill', 'Coffee Beans', 'Coffee Shop', 'Paycheck']);
    await head.getByRole('button', { name: 'Description' }).click();
    expect(await descriptions(page)).toEqual(['Coffee Beans', 'Coffee Shop', 'Electric bill', 'Grocery Store', 'Paycheck']);
    expect(await table(page).locator('th[aria-sort="ascending"]').textContent()).toContain('Description');
    await head.getByRole('button', { name: 'Category' }).click();
    expect(await descriptions(page)).toEqual(['Coffee Shop', 'Grocery Store', 'Coffee Beans', 'Paycheck', 'Electric bill']);
    await head.getByRole('button', { name: 'Account' }).click();
    expect((await descriptions(page)).slice(3)).toEqual(['Paycheck', 'Coffee Beans']);
    await head.getByRole('button', { name: 'Type' }).click();
    expect((await descriptions(page))[0]).toBe('Paycheck');
    await head.getByRole('button', { name: 'Date' }).click();
    expect(await descriptions(page)).toEqual(['Electric bill', 'Coffee Beans', 'Paycheck', 'Grocery Store', 'Coffee Shop']);

    const bill = rows['Electric bill'];
    await page.getByLabel(`Category for ${rowLabel(bill)}`).selectOption('Groceries');
    await expect.poll(async () => (await api.transactions.get.query({ id: bill.id })).category).toBe('Groceries');
    await page.getByLabel(`Type for ${rowLabel(bill)}`).selectOption('transfer');
    await expect.poll(async () => (await api.transactions.get.query({ id: bill.id })).type).toBe('transfer');
    await page.getByLabel(`Category for ${rowLabel(bill)}`).selectOption('');
    await expect.poll(async () => (await api.transactions.get.query({ id: bill.id })).category).toBe(null);

    // A refused inline change is only logged and the row shows the stored value again.
    await api.transactions.delete.mutate({ id: rows['Coffee Shop'].id });
    const coffee = page.getByLabel(`Type for ${rowLabel(rows['Coffee Shop'])}`);
    await coffee.selectOption('charge');
    await expect.poll(() => coffee.inputValue()).toBe('debit');
    expect(errors.some((e) => e.includes(`Failed to update transaction ${rows['Coffee Shop'].id}`))).toBe(true);
    // ...and the person reads why (issue 13: a refused save shows the server's message).
    await page
      .getByRole('alert')
      .filter({ hasText: `Failed to update transaction: Transaction ${rows['Coffee Shop'].id} not found` })
      .waitFor();
    await context.close();
  });

  it('selects rows, bulk edits category, type and account, and refuses an empty bulk edit', async () => {
    const { page, context, api, rows } = await seededSession();
    await search(page);
    const bar = page.getByRole('toolbar', { name: 'Selected transactions' });
    expect(await bar.count()).toBe(0);
    await checkbox(page, rows['Coffee Shop']).check();
    await bar.getByText('1 selected').waitFor();
    for (const name of ['Bulk Edit', 'Delete Selected', 'Clear Selection', 'Split Transaction']) {
      expect(await bar.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    }
    expect(await bar.getByRole('button', { name: 'Inspect Split' }).count()).toBe(0);
    await checkbox(page, rows['Grocery Store']).check();
    await bar.getByText('2 selected').waitFor();
    expect(await bar.getByRole('button', { name: 'Split Transaction' }).count()).toBe(0);
    await bar.getByRole('button', { name: 'Clear Selection' }).click();
    expect(await bar.count()).toBe(0);

    await page.getByRole('checkbox', { name: 'Select all transactions' }).check();
    await bar.getByText('5 selected').waitFor();
    await checkbox(page, rows['Paycheck']).uncheck();
    await bar.getByText('4 selected').waitFor();
    await bar.getByRole('button', { name: 'Bulk Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk Edit 4 transactions' });
    await dialog.getByRole('button', { name: 'Update' }).click();
    await dialog.getByText('Please select at least one field to update').waitFor();
    await expectNoSeriousA11yViolations(page, 'bulk edit dialog');
    await dialog.getByLabel('Category').fill('Household');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await pick(page).getByRole('option', { name: 'charge' }).click();
    await dialog.getByRole('combobox', { name: 'Account' }).click();
    await pick(page).getByRole('option', { name: 'Savings' }).click();
    await dialog.getByRole('button', { name: 'Update' }).click();
    await dialog.waitFor({ state: 'detached' });
    const stored = await allTransactions(api);
    const changed = stored.filter((tx) => tx.category === 'Household');
    expect(changed.map((tx) => tx.description).sort()).toEqual(['Coffee Beans', 'Coffee Shop', 'Electric bill', 'Grocery Store']);
    expect(changed.every((tx) => tx.type === 'charge' && tx.account === 'Savings')).toBe(true);
    // Merged into the list at once.
    expect(await page.getByLabel(`Category for ${rowLabel(rows['Electric bill'])}`).inputValue()).toBe('Household');
    expect(await page.getByLabel(`Type for ${rowLabel(rows['Coffee Shop'])}`).inputValue()).toBe('charge');

    // The server refuses (one selected row was deleted meanwhile).
    await page.getByRole('checkbox', { name: 'Select all transactions' }).check();
    await api.transactions.delete.mutate({ id: rows['Paycheck'].id });
    await bar.getByRole('button', { name: 'Bulk Edit' }).click();
    const again = page.getByRole('dialog', { name: /^Bulk Edit/ });
    await again.getByRole('combobox', { name: 'Type' }).click();
    await pick(page).getByRole('option', { name: 'debit' }).click();
    await again.getByRole('button', { name: 'Update' }).click();
    await again.getByText(`Failed to update transactions: Transaction ${rows['Paycheck'].id} not found`).waitFor();
    await again.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });

  it('deletes the selected rows after confirming, and reports a refused delete', async () => {
    const { page, context, api, rows } = await seededSession();
    await search(page);
    const bar = page.getByRole('toolbar', { name: 'Selected transactions' });
    await checkbox(page, rows['Coffee Shop']).check();
    await checkbox(page, rows['Electric bill']).check();
    await bar.getByRole('button', { name: 'Delete Selected' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Selected' });
    await confirm.getByText('Are you sure you want to delete 2 selected transactions? This action cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await allTransactions(api)).length).toBe(6);
    await bar.getByRole('button', { name: 'Delete Selected' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => descriptions(page)).toEqual(['Coffee Beans', 'Paycheck', 'Grocery Store']);
    expect(await bar.count()).toBe(0);
    expect((await allTransactions(api)).map((tx) => tx.description).sort()).toEqual(['Coffee Beans', 'Grocery Store', 'Old purchase', 'Paycheck']);

    await checkbox(page, rows['Paycheck']).check();
    await api.transactions.delete.mutate({ id: rows['Paycheck'].id });
    await bar.getByRole('button', { name: 'Delete Selected' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `Failed to delete some transactions: Transaction ${rows['Paycheck'].id} not found` })
      .waitFor();
    await context.close();
  });
});

describe('Splits', () => {
  it('splits with auto-fill after refusing bad splits, then refuses to split it again', async () => {
    const { page, context, api, rows } = await seededSession();
    await search(page);
    const grocery = rows['Grocery Store']; // -82.35
    await checkbox(page, grocery).check();
    await page.getByRole('button', { name: 'Split Transaction' }).click();
    const dialog = page.getByRole('dialog', { name: 'Split Transaction' });
    const split = (n: number) => dialog.getByRole('group', { name: `Split ${n}` });
    expect(await dialog.getByRole('group').count()).toBe(2);
    expect(await dialog.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    const amount = split(1).getByLabel('Amount');
    // A text field read by the shared amount parser, with the decimal keyboard on phones.
    expect(await amount.getAttribute('inputmode')).toBe('decimal');
    const save = dialog.getByRole('button', { name: 'Save Split' });
    const remaining = dialog.getByRole('status');
    expect(await remaining.textContent()).toBe('Remaining: 82.35 of 82.35');
    expect(await save.isDisabled()).toBe(true);

    // One counted row only: refused by the shared validator.
    await amount.fill('82.35');
    await split(1).getByLabel('Category').fill('Groceries');
    expect(await remaining.textContent()).toBe('Remaining: 0.00 of 82.35');
    await save.click();
    await dialog.getByText('At least 2 splits are required').waitFor();

    // A cent short: Save stays disabled (the server would refuse it); one click puts it into the last part.
    await amount.fill('50');
    await split(2).getByLabel('Amount').fill('32.34');
    await split(2).getByLabel('Category').fill('Household');
    expect(await remaining.textContent()).toBe('Remaining: 0.01 of 82.35');
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Add the remaining 0.01 to the last part' }).click();
    expect(await split(2).getByLabel('Amount').inputValue()).toBe('32.35');
    expect(await remaining.textContent()).toBe('Remaining: 0.00 of 82.35');
    expect(await save.isEnabled()).toBe(true);
    await split(2).getByLabel('Amount').fill('30');
    expect(await save.isDisabled()).toBe(true);

    // A third row, Remove, then Auto-fill remaining into the first empty amount row.
    await dialog.getByRole('button', { name: 'Add Split' }).click();
    expect(await dialog.getByRole('button', { name: /^Remove split/ }).count()).toBe(3);
    await split(3).getByLabel('Category').fill('Snacks');
    await split(3).getByLabel('Description').fill('Chocolate');
    await split(3).getByLabel('Split Note').fill('treat');
    await dialog.getByRole('button', { name: 'Auto-fill remaining' }).click();
    expect(await split(3).getByLabel('Amount').inputValue()).toBe('2.35');
    expect(await remaining.textContent()).toBe('Remaining: 0.00 of 82.35');
    await expectNoSeriousA11yViolations(page, 'split dialog');
    await screenshotAndCheckWidth(page, 'split-dialog-1400');
    await save.click();
    await dialog.waitFor({ state: 'detached' });

    const details = await api.transactions.splits.query({ id: grocery.id });
    expect(details.parentTransaction.isSplit).toBe(true);
    expect(details.childTransactions.map((c) => [c.amount, c.category, c.description, c.splitNote])).toEqual([
      [-5000, 'Groceries', 'Grocery Store', null],
      [-3000, 'Household', 'Grocery Store', null],
      [-235, 'Snacks', 'Chocolate', 'treat'],
    ]);
    // The owner refetched: the parts appear, and the banner's total counts parts, not the parent.
    await expect.poll(() => descriptions(page)).toContain('Chocolate');
    expect(await bannerText(page)).toBe('Found 8 transactionsTotal: 2,340.16 Credit1 split original not counted in the total (their parts are)');

    await page.getByRole('button', { name: 'Clear Selection' }).click();
    await checkbox(page, grocery).check();
    await page.getByRole('button', { name: 'Split Transaction' }).click();
    await page.getByRole('alert').filter({ hasText: 'This transaction is already split.' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await context.close();
  });

  it('shows the server error when the split is refused', async () => {
    const { page, context, api, rows } = await seededSession();
    await search(page);
    await checkbox(page, rows['Coffee Shop']).check();
    await page.getByRole('button', { name: 'Split Transaction' }).click();
    const dialog = page.getByRole('dialog', { name: 'Split Transaction' });
    await dialog.getByRole('group', { name: 'Split 1' }).getByLabel('Amount').fill('4');
    await dialog.getByRole('group', { name: 'Split 1' }).getByLabel('Category').fill('Dining');
    await dialog.getByRole('group', { name: 'Split 2' }).getByLabel('Category').fill('Tips');
    await dialog.getByRole('button', { name: 'Auto-fill remaining' }).click();
    await api.transactions.delete.mutate({ id: rows['Coffee Shop'].id });
    await dialog.getByRole('button', { name: 'Save Split' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: `Transaction ${rows['Coffee Shop'].id} not found` })
      .waitFor();
    await page.route('**/trpc/transactions.split**', (route) => route.abort());
    await dialog.getByRole('button', { name: 'Save Split' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: /^Failed to split transaction$/ })
      .waitFor();
    await context.close();
  });

  it('inspects a split from a part and edits it (reloaded, prefilled, resubmitted)', async () => {
    const { page, context, api, rows } = await seededSession();
    const paycheck = rows['Paycheck']; // 2,500.00
    const made = await api.transactions.split.mutate({
      id: paycheck.id,
      splits: [
        { amount: 200000, category: 'Salary' },
        { amount: 50000, category: 'Savings', splitNote: 'to savings' },
      ],
    });
    await search(page);
    const part = made.childTransactions[1];
    await checkbox(page, part).check();
    await page.getByRole('button', { name: 'Inspect Split' }).click();
    const inspect = page.getByRole('dialog', { name: 'Inspect Split' });
    const details = inspect.getByRole('table', { name: 'Split transaction details' });
    await details.getByText('to savings').waitFor();
    expect(await details.locator('tbody tr').count()).toBe(3);
    expect(await details.getByText('2,500.00').isVisible()).toBe(true);
    expect(await details.getByText('500.00', { exact: true }).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page, 'inspect split dialog');

    // Someone else changed the split meanwhile: Edit Split reloads it.
    await api.transactions.split.mutate({
      id: paycheck.id,
      splits: [
        { amount: 150000, category: 'Salary' },
        { amount: 100000, category: 'Savings', splitNote: 'to savings' },
      ],
    });
    await inspect.getByRole('button', { name: 'Edit Split' }).click();
    const dialog = page.getByRole('dialog', { name: 'Split Transaction' });
    const split = (n: number) => dialog.getByRole('group', { name: `Split ${n}` });
    expect(await split(1).getByLabel('Amount').inputValue()).toBe('1,500.00');
    expect(await split(2).getByLabel('Amount').inputValue()).toBe('1,000.00');
    expect(await split(2).getByLabel('Category').inputValue()).toBe('Savings');
    expect(await split(2).getByLabel('Split Note').inputValue()).toBe('to savings');
    await split(2).getByLabel('Amount').fill('');
    await split(1).getByLabel('Amount').fill('2400');
    await dialog.getByRole('button', { name: 'Auto-fill remaining' }).click();
    await dialog.getByRole('button', { name: 'Save Split' }).click();
    await dialog.waitFor({ state: 'detached' });
    const after = await api.transactions.splits.query({ id: paycheck.id });
    expect(after.childTransactions.map((c) => c.amount)).toEqual([240000, 10000]);
    await expect.poll(() => page.getByText('100.00', { exact: true }).count()).toBeGreaterThan(0);

    // Inspection failure.
    await checkbox(page, paycheck).check();
    await page.route('**/trpc/transactions.splits**', (route) => route.abort());
    await page.getByRole('button', { name: 'Inspect Split' }).click();
    await page.getByRole('dialog', { name: 'Inspect Split' }).getByText('Failed to load split transaction details.').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await context.close();
  });

  it('fixes split status after confirming, and reports a failure', async () => {
    const { page, context, rows } = await seededSession();
    const em = app.server.app.orm.em.fork();
    await em.getConnection().execute('update `transaction` set is_split = 1 where id in (?, ?)', [rows['Coffee Shop'].id, rows['Paycheck'].id], 'run');
    await search(page);
    await page.getByRole('button', { name: 'Fix Split Status' }).click();
    const confirm = page.getByRole('dialog', { name: 'Fix Split Status' });
    await confirm.getByText('This will reset any transactions that are marked as split but have no split children. Continue?').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Fix Split Status' }).click();
    await confirm.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'Fixed 2 orphaned split transactions' }).waitFor();
    // The results were reloaded: no row is marked split any more.
    await expect.poll(() => table(page).getByText('Split', { exact: true }).count()).toBe(0);

    await page.route('**/trpc/transactions.fixSplitStatus**', (route) => route.abort());
    await page.getByRole('button', { name: 'Fix Split Status' }).click();
    await confirm.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'Error fixing split status' }).waitFor();
    await context.close();
  });
});

describe('Edit Transaction', () => {
  it('creates a transaction with an account, with a notice that vanishes after 3 seconds', async () => {
    const { page, context, api } = await seededSession();
    await page.clock.install();
    await page.goto(`${app.server.url}/create-transaction`);
    await page.getByRole('heading', { name: 'Create Transaction', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Date is required').waitFor();
    await page.getByText('Description is required').waitFor();
    await page.getByText('Amount is required').waitFor();
    await expectNoSeriousA11yViolations(page, 'create transaction');
    await screenshotAndCheckWidth(page, 'create-transaction-1400');

    await page.getByLabel('Date').fill('2024-03-03');
    await page.getByLabel('Description').fill('Bookshop');
    await page.getByLabel('Amount').fill('-12.34');
    await page.getByLabel('Category').fill('Books');
    await page.getByRole('combobox', { name: 'Account' }).click();
    await pick(page).getByRole('option', { name: 'Savings' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const notice = page.getByText('Transaction created successfully');
    await notice.waitFor();
    await page.clock.runFor(2500);
    expect(await notice.isVisible()).toBe(true);
    await page.clock.runFor(1500);
    await notice.waitFor({ state: 'detached' });
    const created = (await allTransactions(api)).find((tx) => tx.description === 'Bookshop');
    expect(created).toMatchObject({ postDate: '2024-03-03', amount: -1234, category: 'Books', account: 'Savings', type: 'debit' });
    expect(await page.getByLabel('Description').inputValue()).toBe('');
    await context.close();
  });

  it('edits a transaction chosen in the table, and shows the failure notice when refused', async () => {
    const { page, context, api, rows } = await seededSession();
    await search(page);
    await checkbox(page, rows['Coffee Shop']).check();
    await page.getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.waitForURL(`${app.server.url}/create-transaction`);
    await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
    expect(await page.getByLabel('Date').inputValue()).toBe('2024-01-05');
    expect(await page.getByLabel('Description').inputValue()).toBe('Coffee Shop');
    expect(await page.getByLabel('Amount').inputValue()).toBe('-4.50');
    expect(await page.getByLabel('Category').inputValue()).toBe('Dining');
    expect(await page.getByRole('combobox', { name: 'Account' }).count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Type' }).textContent()).toBe('debit');
    await page.getByLabel('Description').fill('Coffee Shop Downtown');
    await page.getByLabel('Amount').fill('-5.25');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Transaction updated successfully').waitFor();
    expect(await api.transactions.get.query({ id: rows['Coffee Shop'].id })).toMatchObject({
      description: 'Coffee Shop Downtown',
      amount: -525,
      category: 'Dining',
    });
    // Back to the search, which kept its filters.
    await page.getByRole('button', { name: 'Back' }).click();
    await banner(page).waitFor();
    await expect.poll(() => descriptions(page)).toContain('Coffee Shop Downtown');
    // The edited row is still selected.
    await expect.poll(() => page.getByRole('toolbar', { name: 'Selected transactions' }).getByText('1 selected').count()).toBe(1);

    // A refused save shows the server's reason (the transaction was deleted meanwhile).
    await page.getByRole('button', { name: 'Clear Selection' }).click();
    await checkbox(page, rows['Grocery Store']).check();
    await page.getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
    await api.transactions.delete.mutate({ id: rows['Grocery Store'].id });
    await page.getByLabel('Description').fill('Groceries');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `Failed to update transaction: Transaction ${rows['Grocery Store'].id} not found` })
      .waitFor();
    await context.close();
  });
});

describe('Keyboard only', () => {
  /** Presses Tab (or Shift+Tab) until the focused element's accessible text matches. */
  async function tabTo(page: Page, text: string, backwards = false) {
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        if (!el) return '';
        return (el.getAttribute('aria-label') ?? el.labels?.[0]?.innerText ?? el.innerText).replace(/\s*\*$/, '').trim();
      });
      if (focused === text) return;
    }
    throw new Error(`could not reach "${text}" with the keyboard`);
  }

  it('selects, bulk edits and sorts with the keyboard; Escape closes dialogs', async () => {
    const { page, context, api, rows } = await seededSession();
    await search(page);
    await page.getByLabel('Max Amount').focus();
    await tabTo(page, 'Search');
    await tabTo(page, `Select transaction ${rowLabel(rows['Electric bill'])}`);
    await page.keyboard.press('Space');
    await tabTo(page, `Select transaction ${rowLabel(rows['Coffee Beans'])}`);
    await page.keyboard.press('Space');
    await tabTo(page, 'Bulk Edit', true);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Bulk Edit 2 transactions' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Bulk Edit');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await tabTo(page, 'Category');
    await page.keyboard.type('Utilities');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const stored = await allTransactions(api);
    expect(
      stored
        .filter((tx) => tx.category === 'Utilities')
        .map((tx) => tx.description)
        .sort(),
    ).toEqual(['Coffee Beans', 'Electric bill']);

    // Inline type change with the keyboard.
    await page.getByLabel(`Type for ${rowLabel(rows['Paycheck'])}`).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await api.transactions.get.query({ id: rows['Paycheck'].id })).type).toBe('debit');

    // Sorting with the keyboard.
    await tabTo(page, 'Amount', true);
    await page.keyboard.press('Enter');
    expect((await descriptions(page))[0]).toBe('Paycheck');

    // Split dialog closes on Escape.
    await tabTo(page, 'Clear Selection', true);
    await page.keyboard.press('Enter');
    await page.getByLabel(`Select transaction ${rowLabel(rows['Grocery Store'])}`).focus();
    await page.keyboard.press('Space');
    await tabTo(page, 'Split Transaction', true);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Split Transaction' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('20,000 rows', () => {
  it('renders only the visible rows, sorts and scrolls without freezing', async () => {
    const { page, context, user } = await signedInPage(app.browser, app.server);
    const api = apiFor(user.accessToken);
    await api.accounts.create.mutate({ name: 'Big', type: 'checking', balance: 0 });
    const lines = ['Date,Description,Amount,Category'];
    for (let i = 0; i < 20_000; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      const month = String((i % 12) + 1).padStart(2, '0');
      lines.push(`2024-${month}-${day},Purchase ${i},-${(i % 900) + 1}.${String(i % 100).padStart(2, '0')},Cat ${i % 25}`);
    }
    const body = new FormData();
    body.append('file', new Blob([lines.join('\n')]), 'big.csv');
    body.append('account', 'Big');
    body.append('transactionType', 'debit');
    const res = await fetch(`${app.server.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${user.accessToken}` }, body });
    expect(res.status).toBe(201);

    await page.goto(`${app.server.url}/transactions`);
    await search(page, '2024-01-01', '2024-12-31');
    expect(await page.getByText('Found 20000 transactions').isVisible()).toBe(true);
    expect(await table(page).getAttribute('aria-rowcount')).toBe('20001');
    expect(await table(page).locator('tbody tr[aria-rowindex]').count()).toBeLessThan(60);

    await table(page).locator('thead').getByRole('button', { name: 'Amount' }).click();
    await expect.poll(() => descriptions(page).then((d) => d[0])).toMatch(/^Purchase \d+$/);
    const first = await table(page).locator('tbody tr[aria-rowindex]').first().locator('td').nth(3).textContent();
    expect(first).toBe('-1.00');

    // Scroll to the end: the last rows are rendered, still only a window of them.
    await table(page).evaluate((el) => {
      const scroller = el.parentElement!;
      scroller.scrollTop = scroller.scrollHeight;
    });
    await expect.poll(() => table(page).locator('tbody tr[aria-rowindex="20001"]').count()).toBe(1);
    expect(await table(page).locator('tbody tr[aria-rowindex]').count()).toBeLessThan(60);

    // Select all 20,000 and clear.
    await page.getByRole('checkbox', { name: 'Select all transactions' }).check();
    await page.getByText('20000 selected').waitFor();
    await page.getByRole('button', { name: 'Clear Selection' }).click();
    await context.close();
  });
});
