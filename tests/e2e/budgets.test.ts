import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { LineItemDto } from '../../src/shared/schemas/budgets';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { useBrowserAndServer, trpcApi, expectNoSeriousA11yViolations, screenshotAndCheckWidth, signedInPage, type TrpcApi } from './harness';

const app = useBrowserAndServer();

const apiFor = (token: string) => trpcApi(app.server, token);
type Api = TrpcApi;

/**
 * The fixture: January 2024 with ten rows (one of them a split parent), plus two rows
 * outside the budget's dates that must not count.
 */
const SEED = [
  { postDate: '2024-01-02', description: 'Paycheck', amount: 300000, category: 'Salary', type: 'credit' },
  { postDate: '2024-01-03', description: 'Rent', amount: -120000, category: 'Rent', type: 'debit' },
  { postDate: '2024-01-05', description: 'Supermarket', amount: -8000, category: 'groceries', type: 'charge' },
  { postDate: '2024-01-10', description: 'Big shop', amount: -15000, category: 'Groceries', type: 'debit' },
  { postDate: '2024-01-12', description: 'Cinema', amount: -2500, category: 'Fun', type: 'charge' },
  { postDate: '2024-01-15', description: 'Cash', amount: -4000, type: 'debit' },
  { postDate: '2024-01-20', description: 'To savings', amount: -50000, category: 'Savings', type: 'transfer' },
  { postDate: '2024-01-25', description: 'Refund', amount: 1500, category: 'GROCERIES', type: 'credit' },
  { postDate: '2023-12-31', description: 'Old shop', amount: -999, category: 'Groceries', type: 'charge' },
  { postDate: '2024-02-01', description: 'Next paycheck', amount: 300000, category: 'Salary', type: 'credit' },
] as const;

/** 'Big shop' (-150.00, debit) split into these two parts, which keep its type. */
const BIG_SHOP_SPLIT = [
  { amount: -10000, category: 'Groceries', description: 'Big shop food' },
  { amount: -5000, category: 'Household', description: 'Big shop household' },
];

const JANUARY = {
  name: 'January 2024',
  startDate: '2024-01-01',
  endDate: '2024-01-31',
  lineItems: [
    { name: 'Salary', amount: 300000, type: 'Income' as const, relatedCategories: ['Salary'] },
    { name: 'Rent', amount: 120000, type: 'Fixed' as const, relatedCategories: ['Rent'] },
    { name: 'Food', amount: 25000, type: 'Variable' as const, relatedCategories: ['Groceries', 'Dining'] },
    { name: 'Household', amount: 4000, type: 'Variable' as const, relatedCategories: ['household'] },
    { name: 'Savings', amount: 50000, type: 'NotCounted' as const, relatedCategories: ['Savings'] },
  ],
};

/*
 * Hand computation of January's overview (cents; figures shown as value/100).
 * Counted rows: every January row except the split parent 'Big shop' (its two parts count
 * instead) = 9 rows. Old shop (2023-12-31) and Next paycheck (2024-02-01) are outside.
 *
 * Transaction Type Totals
 *   credit   Paycheck 300000 + Refund 1500                                   =  301500   2 rows
 *   debit    Rent -120000, Cash -4000, Big shop food -10000, household -5000  = -139000   4 rows
 *   charge   Supermarket -8000, Cinema -2500                                  =  -10500   2 rows
 *   transfer To savings -50000                                                =  -50000   1 row
 *   Total    301500 - 139000 - 10500 - 50000                                  =  102000   9 rows
 *   Split transactions: 1 parent, 2 parts, parts' total -10000 - 5000          =  -15000
 *
 * Line Items by Type (spending shown positive). Categories match regardless of case: the
 * server files 'groceries', 'Groceries' and 'GROCERIES' under the first spelling, 'groceries',
 * which Food's 'Groceries' matches; Household's 'household' matches the category 'Household'.
 *   Income     Salary:    Paycheck 300000                         actual 300000 of 300000  (1)
 *   Fixed      Rent:      Rent 120000                             actual 120000 of 120000  (1)
 *   Variable   Food:      Supermarket 8000 + Big shop food 10000
 *                         - Refund 1500                           actual  16500 of  25000  (3)
 *              Household: Big shop household 5000                 actual   5000 of   4000  (1, over)
 *   NotCounted Savings:   To savings 50000                        actual  50000 of  50000  (1)
 *   Untracked  Cinema 'fun' 2500 + Cash 'uncategorized' 4000      actual   6500            (2)
 *
 * Budgeted Amounts
 *   budgeted: income 300000, fixed 120000, variable 25000 + 4000 = 29000, notCounted 50000
 *             net = 300000 - (120000 + 29000) = 151000
 *   actual:   income 300000, fixed 120000, variable 16500 + 5000 = 21500, notCounted 50000,
 *             untracked 6500; net = 300000 - (120000 + 21500) = 158500
 */
const EXPECTED_TYPE_ROWS = [
  ['credit', '3,015.00', '2 transactions'],
  ['debit', '-1,390.00', '4 transactions'],
  ['charge', '-105.00', '2 transactions'],
  ['transfer', '-500.00', '1 transaction'],
  ['Split transactions', '-150.00', '1 split transaction, 2 parts'],
];
const EXPECTED_LINE_ITEM_ROWS = [
  ['Salary', '3,000.00 of 3,000.00', '1 transaction'],
  ['Rent', '1,200.00 of 1,200.00', '1 transaction'],
  ['Food', '165.00 of 250.00', '3 transactions'],
  ['Household', '50.00 of 40.00', '1 transaction'],
  ['Savings', '500.00 of 500.00', '1 transaction'],
  ['Untracked', '65.00', '2 transactions: fun, uncategorized'],
];
const EXPECTED_BUDGETED_ROWS = [
  ['Group', 'Budgeted', 'Actual'],
  ['Income', '3,000.00', '3,000.00'],
  ['Fixed', '1,200.00', '1,200.00'],
  ['Variable', '290.00', '215.00'],
  ['NotCounted', '500.00', '500.00'],
  ['Untracked', '—', '65.00'],
  ['Net', '1,510.00', '1,585.00'],
];

/** Every description of the January budget's table (split parent and parts included), newest first; same-day rows newest id first. */
const ALL_JANUARY = ['Refund', 'To savings', 'Cash', 'Cinema', 'Big shop household', 'Big shop food', 'Big shop', 'Supermarket', 'Rent', 'Paycheck'];

async function seedTransactions(api: Api) {
  const rows: Record<string, TransactionDto> = {};
  for (const tx of SEED) rows[tx.description] = await api.transactions.create.mutate(tx);
  await api.transactions.split.mutate({ id: rows['Big shop'].id, splits: BIG_SHOP_SPLIT });
  return rows;
}

async function saveBudget(api: Api, budget: typeof JANUARY) {
  return api.budgets.save.mutate(budget);
}

async function budgetsOf(api: Api) {
  const budgets = await api.budgets.list.query();
  return Promise.all(budgets.map(async (budget) => ({ budget, lineItems: await api.budgets.lineItems.query({ budgetId: budget.id }) })));
}

/** A signed-in page on the Budgets screen, its user owning what `seed` made. */
async function session(width = 1400, seed: (api: Api) => Promise<unknown> = async () => {}) {
  const s = await signedInPage(app.browser, app.server, width, 900, {}, { before: (user) => seed(apiFor(user.accessToken)) });
  await s.page.getByRole('heading', { name: 'Budgets', level: 1 }).waitFor();
  return { ...s, api: apiFor(s.user.accessToken) };
}

const seedJanuary = async (api: Api) => {
  await seedTransactions(api);
  return saveBudget(api, JANUARY);
};

const card = (page: Page, name: string) => page.getByRole('region', { name: 'Budget list' }).getByRole('article', { name, exact: true });
const cardNames = (page: Page) => page.getByRole('region', { name: 'Budget list' }).locator('article h2').allTextContents();
const selectedSection = (page: Page) => page.getByRole('region', { name: 'Selected Budget' });
const column = (page: Page, title: string) => selectedSection(page).getByRole('region', { name: title, exact: true });
const typeRow = (page: Page, label: string) => column(page, 'Transaction Type Totals').getByRole('button', { name: new RegExp(`^${label}`) });
const itemRow = (page: Page, label: string) => column(page, 'Line Items by Type').getByRole('button', { name: new RegExp(`^${label}`) });
const status = (page: Page) =>
  selectedSection(page)
    .getByRole('status')
    .filter({ hasText: /^(Showing|Filtered)/ });
const lineItem = (page: Page, n: number) => page.getByRole('group', { name: `Line item ${n}`, exact: true });
const editorButton = (page: Page, name: 'Save Budget' | 'Update Budget') => page.getByRole('button', { name, exact: true });

/** Label, figure and detail of each clickable overview row in a column. */
async function overviewRows(section: Locator): Promise<string[][]> {
  return section
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((b) => [...b.querySelectorAll(':scope span.MuiTypography-root')].map((s) => s.textContent)));
}

async function tableRows(table: Locator): Promise<string[][]> {
  return table.locator('tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));
}

/** Descriptions in the selected budget's transaction table (or, below 768 px, its cards), in display order. */
async function tableDescriptions(page: Page): Promise<string[]> {
  const table = selectedSection(page).getByRole('table', { name: 'Transactions' });
  if ((await table.count()) === 0) {
    return selectedSection(page)
      .getByRole('list', { name: 'Transactions' })
      .getByRole('listitem')
      .evaluateAll((items) => items.map((item) => item.querySelector('button p')?.textContent ?? ''));
  }
  return table.locator('tbody tr[aria-rowindex]').evaluateAll((rows) => rows.map((row) => row.children[2].querySelector('span[title]')?.textContent ?? ''));
}

async function pressed(row: Locator): Promise<string | null> {
  return row.getAttribute('aria-pressed');
}

/** screenshotAndCheckWidth from the top of the page, with nothing focused and click ripples faded. */
async function screenshot(page: Page, name: string) {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await expect.poll(() => page.locator('.MuiTouchRipple-child').count(), { timeout: 5000 }).toBe(0);
  await screenshotAndCheckWidth(page, name);
}

async function selectJanuary(page: Page) {
  await card(page, 'January 2024').getByRole('button', { name: 'Select budget January 2024' }).click();
  await status(page).waitFor();
}

describe('Budgets list', () => {
  it("shows 'Loading budgets...', then 'No budgets found.', and creates a budget with line items through the form", async () => {
    const s = await signedInPage(app.browser, app.server);
    const { page, context, errors } = s;
    const api = apiFor(s.user.accessToken);
    await api.transactions.create.mutate({ postDate: '2024-03-01', description: 'Shop', amount: -100, category: 'Groceries' });
    await api.transactions.create.mutate({ postDate: '2024-03-02', description: 'Bar', amount: -100, category: 'Dining' });

    // Hold the list to see the loading text.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const listCalls = (url: URL) => url.pathname.includes('budgets.list');
    await page.route(listCalls, async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await page.getByText('Loading budgets...', { exact: true }).waitFor();
    release();
    await page.getByText('No budgets found.', { exact: true }).waitFor();
    await page.unroute(listCalls);
    expect(await page.getByText('Loading budgets...').count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'budgets empty');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create Budget' }).click();
    await page.getByRole('heading', { name: 'Create Budget', level: 1 }).waitFor();
    const save = editorButton(page, 'Save Budget');
    // Disabled until name, start and end date are all filled.
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('Budget Name').fill('March 2024');
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('Start Date').fill('2024-03-01');
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('End Date').fill('2024-03-31');
    expect(await save.isDisabled()).toBe(false);
    await page.getByLabel('Budget Name').fill('   ');
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('Budget Name').fill('March 2024');

    // First line item: defaults to Variable, amount step 0.01, categories from the picker.
    await page.getByRole('button', { name: 'Add Line Item' }).click();
    const first = lineItem(page, 1);
    expect(await first.getByRole('combobox', { name: 'Type' }).textContent()).toBe('Variable');
    const amount = first.getByLabel('Amount');
    expect(await amount.getAttribute('inputmode')).toBe('decimal');
    await first.getByLabel('Name').fill('Food');
    await amount.fill('19.99');
    await first.getByRole('combobox', { name: 'Add category' }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'Groceries' }).click();
    await first.getByRole('combobox', { name: 'Add category' }).click();
    // Categories already chosen are not offered again.
    await page.getByRole('listbox').getByRole('option').first().waitFor();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['Dining']);
    await page.getByRole('listbox').getByRole('option', { name: 'Dining' }).click();
    const related = first.getByLabel('Related Categories');
    expect(await related.inputValue()).toBe('Groceries, Dining');
    // Clear All empties the text; typing works too (split on commas and trimmed on save).
    await first.getByRole('button', { name: 'Clear All categories of Line item 1' }).click();
    expect(await related.inputValue()).toBe('');
    await related.fill(' Groceries ,, Dining , Takeaway ');

    // Second line item: Income, typed amount with more than two decimals.
    await page.getByRole('button', { name: 'Add Line Item' }).click();
    const second = lineItem(page, 2);
    await second.getByLabel('Name').fill('Pay');
    await second.getByLabel('Amount').fill('1234.5');
    await second.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'Income' }).click();
    await second.getByLabel('Related Categories').fill('Salary');

    // A third, unsaved one is dropped from the form without asking the server.
    await page.getByRole('button', { name: 'Add Line Item' }).click();
    await lineItem(page, 3).getByLabel('Name').fill('Scrap');
    await lineItem(page, 3).getByRole('button', { name: 'Delete Line item 3' }).click();
    expect(await lineItem(page, 3).count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'create budget form');
    await screenshot(page, 'budget-editor-1400');

    await save.click();
    await page.getByRole('heading', { name: 'Budgets', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const march = card(page, 'March 2024');
    await march.waitFor();
    expect(await march.locator('dd').allTextContents()).toEqual(['2024-03-01', '2024-03-31', '2']);

    const [stored] = await budgetsOf(api);
    expect(stored.budget).toMatchObject({ name: 'March 2024', startDate: '2024-03-01', endDate: '2024-03-31', amount: 0 });
    expect(stored.lineItems.map(({ name, amount, type, relatedCategories }) => ({ name, amount, type, relatedCategories }))).toEqual([
      { name: 'Food', amount: 1999, type: 'Variable' as const, relatedCategories: ['Groceries', 'Dining', 'Takeaway'] },
      { name: 'Pay', amount: 123450, type: 'Income' as const, relatedCategories: ['Salary'] },
    ]);

    // Cancel returns to '/' without saving.
    await page.getByRole('link', { name: 'Create Budget' }).first().click();
    await page.getByLabel('Budget Name').fill('Never saved');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByRole('heading', { name: 'Budgets', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await cardNames(page)).toEqual(['March 2024']);
    expect(await budgetsOf(api)).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('edits a budget: the form is prefilled, a saved line item is deleted at once, Update Budget saves the rest', async () => {
    const { page, context, api, errors } = await session(1400, (a) => saveBudget(a, JANUARY));
    const january = card(page, 'January 2024');
    await january.waitFor();
    expect(await january.locator('dd').allTextContents()).toEqual(['2024-01-01', '2024-01-31', '5']);
    await january.getByRole('button', { name: 'Edit Budget January 2024' }).click();
    await page.getByRole('heading', { name: 'Edit Budget', level: 1 }).waitFor();
    // Issue 15: the budget being edited is in the URL (was /create-budget with history state).
    expect(new URL(page.url()).pathname).toBe(`/budgets/${(await budgetsOf(api))[0].budget.id}/edit`);
    expect(await page.getByLabel('Budget Name').inputValue()).toBe('January 2024');
    expect(await page.getByLabel('Start Date').inputValue()).toBe('2024-01-01');
    expect(await page.getByLabel('End Date').inputValue()).toBe('2024-01-31');
    expect(await page.getByRole('group', { name: /^Line item \d+$/ }).count()).toBe(5);
    expect(await lineItem(page, 3).getByLabel('Name').inputValue()).toBe('Food');
    expect(await lineItem(page, 3).getByLabel('Amount').inputValue()).toBe('250.00');
    expect(await lineItem(page, 3).getByLabel('Related Categories').inputValue()).toBe('Groceries, Dining');
    expect(await lineItem(page, 5).getByRole('combobox', { name: 'Type' }).textContent()).toBe('NotCounted');
    expect(await editorButton(page, 'Save Budget').count()).toBe(0);
    const update = editorButton(page, 'Update Budget');
    expect(await update.isEnabled()).toBe(true);

    // Deleting a saved line item asks, then deletes it on the server at once.
    await lineItem(page, 4).getByRole('button', { name: 'Delete Line item 4' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Line Item' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await page.getByRole('group', { name: /^Line item \d+$/ }).count()).toBe(5);
    await lineItem(page, 4).getByRole('button', { name: 'Delete Line item 4' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByRole('group', { name: /^Line item \d+$/ }).count()).toBe(4);
    expect((await budgetsOf(api))[0].lineItems.map((item) => item.name)).toEqual(['Salary', 'Rent', 'Food', 'Savings']);
    // A reload keeps editing the budget without the deleted item.
    await page.reload();
    await page.getByRole('heading', { name: 'Edit Budget', level: 1 }).waitFor();
    await expect.poll(() => page.getByRole('group', { name: /^Line item \d+$/ }).count()).toBe(4);
    expect(await lineItem(page, 4).getByLabel('Name').inputValue()).toBe('Savings');

    await page.getByLabel('Budget Name').fill('January 2024 (revised)');
    await page.getByLabel('End Date').fill('2024-02-01');
    await lineItem(page, 3).getByLabel('Amount').fill('300.10');
    await lineItem(page, 3).getByLabel('Related Categories').fill('Groceries, Dining, Household');
    await page.getByRole('button', { name: 'Add Line Item' }).click();
    await lineItem(page, 5).getByLabel('Name').fill('Fun');
    await lineItem(page, 5).getByLabel('Amount').fill('25');
    await lineItem(page, 5).getByLabel('Related Categories').fill('Fun');
    await update.click();
    await page.getByRole('heading', { name: 'Budgets', level: 1 }).waitFor();
    await card(page, 'January 2024 (revised)').waitFor();
    expect(await cardNames(page)).toEqual(['January 2024 (revised)']);

    const [stored] = await budgetsOf(api);
    expect(stored.budget).toMatchObject({ name: 'January 2024 (revised)', startDate: '2024-01-01', endDate: '2024-02-01' });
    expect(stored.lineItems.map(({ name, amount, type, relatedCategories }) => [name, amount, type, relatedCategories])).toEqual([
      ['Salary', 300000, 'Income', ['Salary']],
      ['Rent', 120000, 'Fixed', ['Rent']],
      ['Food', 30010, 'Variable', ['Groceries', 'Dining', 'Household']],
      ['Savings', 50000, 'NotCounted', ['Savings']],
      ['Fun', 2500, 'Variable', ['Fun']],
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('copies a budget: only its line items come through, saved as a new budget', async () => {
    const { page, context, api, errors } = await session(1400, (a) => saveBudget(a, JANUARY));
    await card(page, 'January 2024').getByRole('button', { name: 'Copy Budget January 2024' }).click();
    await page.getByRole('heading', { name: 'Create Budget', level: 1 }).waitFor();
    expect(await page.getByLabel('Budget Name').inputValue()).toBe('');
    expect(await page.getByLabel('Start Date').inputValue()).toBe('');
    expect(await page.getByLabel('End Date').inputValue()).toBe('');
    expect(await page.getByRole('group', { name: /^Line item \d+$/ }).count()).toBe(5);
    expect(await lineItem(page, 1).getByLabel('Name').inputValue()).toBe('Salary');
    expect(await lineItem(page, 1).getByLabel('Amount').inputValue()).toBe('3,000.00');
    const save = editorButton(page, 'Save Budget');
    expect(await save.isDisabled()).toBe(true);
    expect(await editorButton(page, 'Update Budget').count()).toBe(0);

    // Deleting a copied item only leaves the form: the original keeps it.
    await lineItem(page, 4).getByRole('button', { name: 'Delete Line item 4' }).click();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByRole('group', { name: /^Line item \d+$/ }).count()).toBe(4);

    await page.getByLabel('Budget Name').fill('February 2024');
    await page.getByLabel('Start Date').fill('2024-02-01');
    await page.getByLabel('End Date').fill('2024-02-29');
    await save.click();
    await card(page, 'February 2024').waitFor();
    expect((await cardNames(page)).sort()).toEqual(['February 2024', 'January 2024']);

    const stored = await budgetsOf(api);
    const january = stored.find((b) => b.budget.name === 'January 2024')!;
    const february = stored.find((b) => b.budget.name === 'February 2024')!;
    expect(february.budget).toMatchObject({ startDate: '2024-02-01', endDate: '2024-02-29' });
    expect(february.budget.id).not.toBe(january.budget.id);
    expect(january.lineItems).toHaveLength(5);
    const shape = ({ name, amount, type, relatedCategories }: LineItemDto) => ({ name, amount, type, relatedCategories });
    expect(february.lineItems.map(shape)).toEqual(january.lineItems.filter((item) => item.name !== 'Household').map(shape));
    // New items, not the originals moved over.
    expect(february.lineItems.every((item) => item.budgetId === february.budget.id)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('deletes a budget only after confirmation', async () => {
    const { page, context, api, errors } = await session(1400, async (a) => {
      await saveBudget(a, JANUARY);
      await saveBudget(a, { ...JANUARY, name: 'Spare', lineItems: [] });
    });
    await card(page, 'Spare').waitFor();
    await card(page, 'Spare').getByRole('button', { name: 'Delete budget Spare' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Budget' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await budgetsOf(api)).toHaveLength(2);
    await card(page, 'Spare').getByRole('button', { name: 'Delete budget Spare' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await card(page, 'Spare').waitFor({ state: 'detached' });
    expect(await cardNames(page)).toEqual(['January 2024']);
    expect((await budgetsOf(api)).map((b) => b.budget.name)).toEqual(['January 2024']);

    // Deleting the selected budget closes its section.
    await card(page, 'January 2024').getByRole('button', { name: 'Select budget January 2024' }).click();
    await selectedSection(page).waitFor();
    await card(page, 'January 2024').getByRole('button', { name: 'Delete budget January 2024' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No budgets found.', { exact: true }).waitFor();
    expect(await selectedSection(page).count()).toBe(0);
    expect(await budgetsOf(api)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('Selected budget and overview', () => {
  it('shows the hand-computed figures of the overview and the budget period in the table', async () => {
    const { page, context, errors } = await session(1400, seedJanuary);
    const select = card(page, 'January 2024').getByRole('button', { name: 'Select budget January 2024' });
    expect(await select.getAttribute('aria-pressed')).toBe('false');
    await selectJanuary(page);
    expect(await select.getAttribute('aria-pressed')).toBe('true');
    await selectedSection(page).getByRole('heading', { name: 'Selected Budget', level: 2 }).waitFor();

    expect(await overviewRows(column(page, 'Transaction Type Totals'))).toEqual(EXPECTED_TYPE_ROWS);
    expect(await selectedSection(page).getByTestId('overview-total').textContent()).toBe('1,020.00');
    await column(page, 'Transaction Type Totals').getByText('Total (9 transactions)').waitFor();
    expect(await overviewRows(column(page, 'Line Items by Type'))).toEqual(EXPECTED_LINE_ITEM_ROWS);
    // Each group's actual of budgeted.
    const groups = column(page, 'Line Items by Type');
    await groups.getByRole('region', { name: 'Variable line items' }).getByText('215.00 of 290.00').waitFor();
    await groups.getByRole('region', { name: 'Untracked line items' }).getByText('65.00', { exact: true }).first().waitFor();
    expect(await tableRows(column(page, 'Budgeted Amounts').getByRole('table'))).toEqual(EXPECTED_BUDGETED_ROWS);
    await column(page, 'Budgeted Amounts').getByText('Budgeted net 1,510.00, actual net 1,585.00.', { exact: false }).waitFor();

    // Budget bars: 'Food' 165/250 = 66 %, 'Household' over budget, full.
    const bar = (label: string) => itemRow(page, label).getByRole('progressbar', { includeHidden: true });
    expect(await bar('Food').getAttribute('aria-valuenow')).toBe('66');
    expect(await bar('Household').getAttribute('aria-valuenow')).toBe('100');
    expect(await bar('Household').getAttribute('class')).toMatch(/colorError/);
    expect(await bar('Salary').getAttribute('aria-valuenow')).toBe('100');
    expect(await itemRow(page, 'Untracked').getByRole('progressbar', { includeHidden: true }).count()).toBe(0);

    // The table: the budget's rows only (Old shop and Next paycheck are outside), newest first.
    expect(await status(page).textContent()).toBe(
      'Showing all 10 rows: 9 transactions counted in the totals and 1 split original (their parts are counted instead)',
    );
    await expect.poll(() => tableDescriptions(page)).toEqual(ALL_JANUARY);
    await expectNoSeriousA11yViolations(page, 'selected budget');
    await screenshot(page, 'budgets-selected-1400');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('filters the table by type, line item, Untracked and split rows; clicking again clears; one at a time; a new selection resets', async () => {
    const { page, context, errors } = await session(1400, async (a) => {
      await seedJanuary(a);
      await saveBudget(a, { ...JANUARY, name: 'Early January', endDate: '2024-01-04' });
    });
    await selectJanuary(page);
    const charge = typeRow(page, 'charge');
    const food = itemRow(page, 'Food');
    const split = typeRow(page, 'Split transactions');
    const untracked = itemRow(page, 'Untracked');

    await charge.click();
    expect(await pressed(charge)).toBe('true');
    await expect.poll(() => tableDescriptions(page)).toEqual(['Cinema', 'Supermarket']);
    expect(await status(page).textContent()).toBe('Filtered by Type: charge: showing 2 of 10 rows');
    // Again: cleared.
    await charge.click();
    expect(await pressed(charge)).toBe('false');
    await expect.poll(() => tableDescriptions(page)).toEqual(ALL_JANUARY);
    expect(await status(page).textContent()).toBe(
      'Showing all 10 rows: 9 transactions counted in the totals and 1 split original (their parts are counted instead)',
    );

    // A line item (categories of any case); then the split row replaces it.
    await charge.click();
    await food.click();
    expect(await pressed(charge)).toBe('false');
    expect(await pressed(food)).toBe('true');
    await expect.poll(() => tableDescriptions(page)).toEqual(['Refund', 'Big shop food', 'Supermarket']);
    expect(await status(page).textContent()).toBe('Filtered by Line item: Food: showing 3 of 10 rows');
    await split.click();
    expect(await pressed(food)).toBe('false');
    expect(await pressed(split)).toBe('true');
    await expect.poll(() => tableDescriptions(page)).toEqual(['Big shop household', 'Big shop food', 'Big shop']);
    expect(await status(page).textContent()).toBe('Filtered by Split transactions: showing 3 of 10 rows');

    // Untracked replaces the split row; the Clear Filter button clears too.
    await untracked.click();
    expect(await pressed(split)).toBe('false');
    expect(await pressed(untracked)).toBe('true');
    await expect.poll(() => tableDescriptions(page)).toEqual(['Cash', 'Cinema']);
    await untracked.click();
    await expect.poll(() => tableDescriptions(page)).toEqual(ALL_JANUARY);
    await typeRow(page, 'transfer').click();
    await expect.poll(() => tableDescriptions(page)).toEqual(['To savings']);
    expect(await selectedSection(page).getByRole('button', { pressed: true }).count()).toBe(1);
    await selectedSection(page).getByRole('button', { name: 'Clear Filter' }).click();
    await expect.poll(() => tableDescriptions(page)).toEqual(ALL_JANUARY);
    expect(await pressed(typeRow(page, 'transfer'))).toBe('false');

    // Keyboard: Enter and Space toggle a row.
    await itemRow(page, 'Rent').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => tableDescriptions(page)).toEqual(['Rent']);
    await page.keyboard.press('Space');
    await expect.poll(() => tableDescriptions(page)).toEqual(ALL_JANUARY);

    // Another budget: its own dates and figures; a fresh selection starts unfiltered.
    await itemRow(page, 'Salary').click();
    await expect.poll(() => tableDescriptions(page)).toEqual(['Paycheck']);
    await card(page, 'Early January').getByRole('button', { name: 'Select budget Early January' }).click();
    await expect.poll(() => status(page).textContent()).toBe('Showing all 2 transactions');
    expect(await tableDescriptions(page)).toEqual(['Rent', 'Paycheck']);
    expect(await selectedSection(page).getByTestId('overview-total').textContent()).toBe('1,800.00');
    await itemRow(page, 'Rent').click();
    await expect.poll(() => tableDescriptions(page)).toEqual(['Rent']);
    // Selecting the same card again reloads it and resets the filter.
    await card(page, 'Early January').getByRole('button', { name: 'Select budget Early January' }).click();
    await expect.poll(() => status(page).textContent()).toBe('Showing all 2 transactions');
    expect(await pressed(itemRow(page, 'Rent'))).toBe('false');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is reachable and usable from the keyboard: select a card, edit, and cancel', async () => {
    const { page, context } = await session(1400, seedJanuary);
    const select = card(page, 'January 2024').getByRole('button', { name: 'Select budget January 2024' });
    await select.waitFor();
    // Tab from the page's Create Budget button reaches the card.
    await page.getByRole('main').getByRole('link', { name: 'Create Budget' }).focus();
    await page.keyboard.press('Tab');
    expect(await select.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await status(page).waitFor();
    await page.keyboard.press('Tab');
    expect(
      await card(page, 'January 2024')
        .getByRole('button', { name: 'Edit Budget January 2024' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Edit Budget', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Budgets', level: 1 }).waitFor();
    await context.close();
  });
});

describe('Budget errors', () => {
  it("shows 'Failed to fetch budgets or line items. Please try again.' when budgets.list or budgets.lineItems fail, and recovers", async () => {
    const { page, context } = await session(1400, (a) => saveBudget(a, JANUARY));
    const message = 'Failed to fetch budgets or line items. Please try again.';
    for (const procedure of ['budgets.list', 'budgets.lineItems']) {
      const calls = (url: URL) => url.pathname.includes(procedure);
      await page.route(calls, (route) => route.abort());
      await page.reload();
      await page.getByRole('alert').filter({ hasText: message }).waitFor({ timeout: 20_000 });
      expect(await page.getByRole('region', { name: 'Budget list' }).count()).toBe(0);
      expect(await page.getByText('No budgets found.').count()).toBe(0);
      await page.unroute(calls);
      await page.getByRole('button', { name: 'Retry' }).click();
      await card(page, 'January 2024').waitFor();
      expect(await page.getByRole('alert').filter({ hasText: message }).count()).toBe(0);
    }
    await context.close();
  });

  it("shows 'Failed to fetch transactions' when the budget's transactions cannot be loaded", async () => {
    const { page, context } = await session(1400, seedJanuary);
    const calls = (url: URL) => url.pathname.includes('transactions.list');
    await page.route(calls, (route) => route.abort());
    await card(page, 'January 2024').getByRole('button', { name: 'Select budget January 2024' }).click();
    const alert = selectedSection(page)
      .getByRole('alert')
      .filter({ hasText: /^Failed to fetch transactions/ });
    await alert.waitFor();
    expect(await selectedSection(page).getByRole('table').count()).toBe(0);
    await page.unroute(calls);
    await alert.getByRole('button', { name: 'Retry' }).click();
    await status(page).waitFor();
    expect(await status(page).textContent()).toBe(
      'Showing all 10 rows: 9 transactions counted in the totals and 1 split original (their parts are counted instead)',
    );
    expect(await alert.count()).toBe(0);
    await context.close();
  });

  it("shows 'Failed to delete budget. Please try again.' and keeps the card", async () => {
    const { page, context, api } = await session(1400, (a) => saveBudget(a, JANUARY));
    const calls = (url: URL) => url.pathname.includes('budgets.delete');
    await page.route(calls, (route) => route.abort());
    await card(page, 'January 2024').getByRole('button', { name: 'Delete budget January 2024' }).click();
    await page.getByRole('dialog', { name: 'Delete Budget' }).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Failed to delete budget\. Please try again\.$/ })
      .waitFor();
    expect(await cardNames(page)).toEqual(['January 2024']);
    expect(await budgetsOf(api)).toHaveLength(1);
    await context.close();
  });

  it("shows 'Failed to delete line item. Please try again.' and keeps the item", async () => {
    const { page, context, api } = await session(1400, (a) => saveBudget(a, JANUARY));
    await card(page, 'January 2024').getByRole('button', { name: 'Edit Budget January 2024' }).click();
    await page.getByRole('heading', { name: 'Edit Budget', level: 1 }).waitFor();
    const calls = (url: URL) => url.pathname.includes('budgets.deleteLineItem');
    await page.route(calls, (route) => route.abort());
    await lineItem(page, 2).getByRole('button', { name: 'Delete Line item 2' }).click();
    await page.getByRole('dialog', { name: 'Delete Line Item' }).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Failed to delete line item\. Please try again\.$/ })
      .waitFor();
    expect(await page.getByRole('group', { name: /^Line item \d+$/ }).count()).toBe(5);
    expect(await lineItem(page, 2).getByLabel('Name').inputValue()).toBe('Rent');
    expect((await budgetsOf(api))[0].lineItems).toHaveLength(5);
    await context.close();
  });

  it("shows 'Failed to save the budget and line items. Please try again.' and a refused save leaves nothing half-saved", async () => {
    const { page, context, api } = await session(1400, (a) => saveBudget(a, JANUARY));
    const message = 'Failed to save the budget and line items. Please try again.';
    // A save that never reaches the server.
    await page.getByRole('main').getByRole('link', { name: 'Create Budget' }).click();
    await page.getByLabel('Budget Name').fill('Unsaved');
    await page.getByLabel('Start Date').fill('2024-05-01');
    await page.getByLabel('End Date').fill('2024-05-31');
    const calls = (url: URL) => url.pathname.includes('budgets.save');
    await page.route(calls, (route) => route.abort());
    await editorButton(page, 'Save Budget').click();
    await page.getByRole('alert').filter({ hasText: message }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/create-budget');
    expect(await page.getByLabel('Budget Name').inputValue()).toBe('Unsaved');
    await page.unroute(calls);
    await page.getByRole('link', { name: 'Cancel' }).click();

    // The server refuses part-way: one of the edited line items was deleted elsewhere
    // meanwhile. The budget's new name, the changed amount and the new item are not kept.
    await card(page, 'January 2024').getByRole('button', { name: 'Edit Budget January 2024' }).click();
    await page.getByRole('heading', { name: 'Edit Budget', level: 1 }).waitFor();
    const before = await budgetsOf(api);
    const rent = before[0].lineItems.find((item) => item.name === 'Rent')!;
    await api.budgets.deleteLineItem.mutate({ id: rent.id });
    await page.getByLabel('Budget Name').fill('Renamed');
    await lineItem(page, 1).getByLabel('Amount').fill('3500');
    await page.getByRole('button', { name: 'Add Line Item' }).click();
    await lineItem(page, 6).getByLabel('Name').fill('Extra');
    await lineItem(page, 6).getByLabel('Amount').fill('10');
    await editorButton(page, 'Update Budget').click();
    const alert = page.getByRole('alert').filter({ hasText: message });
    await alert.waitFor();
    await alert.getByText(`Line item ${rent.id} not found in this budget`).waitFor();
    const after = await budgetsOf(api);
    expect(after).toHaveLength(1);
    expect(after[0].budget.name).toBe('January 2024');
    expect(after[0].lineItems.map((item) => [item.name, item.amount])).toEqual([
      ['Salary', 300000],
      ['Food', 25000],
      ['Household', 4000],
      ['Savings', 50000],
    ]);
    await context.close();
  });
});

describe('Budgets layout', () => {
  it('fits 576 px: list, selected budget with overview and table, and the editor', async () => {
    const { page, context } = await session(576, async (a) => {
      await seedJanuary(a);
      await saveBudget(a, { ...JANUARY, name: 'A budget with a rather long name that has to wrap on a narrow screen', lineItems: [] });
    });
    await selectJanuary(page);
    await itemRow(page, 'Food').click();
    await expect.poll(() => tableDescriptions(page)).toEqual(['Refund', 'Big shop food', 'Supermarket']);
    await screenshot(page, 'budgets-selected-576');
    await expectNoSeriousA11yViolations(page, 'selected budget at 576 px');

    await card(page, 'January 2024').getByRole('button', { name: 'Edit Budget January 2024' }).click();
    await page.getByRole('heading', { name: 'Edit Budget', level: 1 }).waitFor();
    await screenshot(page, 'budget-editor-576');
    await expectNoSeriousA11yViolations(page, 'budget editor at 576 px');
    await context.close();
  });
});
