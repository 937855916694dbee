import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { useBrowserAndServer, trpcApi, screenshotAndCheckWidth, signedInPage, type TrpcApi } from './harness';

export type Api = TrpcApi;

/**
 * The Budgets screen of a file of tests: its server and browser (started before the file, closed after), the
 * January seed with its hand-computed figures, a signed-in page, and locators.
 */
export function useBudgetsScreen() {
  const app = useBrowserAndServer();

  const apiFor = (token: string) => trpcApi(app.server, token);

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
    ['credit', '$3,015.00', '2 transactions'],
    ['debit', '−$1,390.00', '4 transactions'],
    ['charge', '−$105.00', '2 transactions'],
    ['transfer', '−$500.00', '1 transaction'],
    ['Split transactions', '−$150.00', '1 split transaction, 2 parts'],
  ];
  const EXPECTED_LINE_ITEM_ROWS = [
    ['Salary', '$3,000.00 of $3,000.00', '1 transaction'],
    ['Rent', '$1,200.00 of $1,200.00', '1 transaction'],
    ['Food', '$165.00 of $250.00', '3 transactions'],
    ['Household', '$50.00 of $40.00', '1 transaction'],
    ['Savings', '$500.00 of $500.00', '1 transaction'],
    ['Untracked', '$65.00', '2 transactions: Fun, Uncategorized'],
  ];
  const EXPECTED_BUDGETED_ROWS = [
    ['Group', 'Budgeted', 'Actual'],
    ['Income', '$3,000.00', '$3,000.00'],
    ['Fixed', '$1,200.00', '$1,200.00'],
    ['Variable', '$290.00', '$215.00'],
    ['Not counted', '$500.00', '$500.00'],
    ['Untracked', '—', '$65.00'],
    ['Net', '$1,510.00', '$1,585.00'],
  ];

  /** Every description of the January budget's table (split parent and parts included), newest first; same-day rows newest id first. */
  const ALL_JANUARY = [
    'Refund',
    'To savings',
    'Cash',
    'Cinema',
    // A split reads as one purchase: the original, then its parts in the order written.
    'Big shop',
    'Big shop food',
    'Big shop household',
    'Supermarket',
    'Rent',
    'Paycheck',
  ];

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
    return Promise.all(
      budgets.map(async (budget) => ({
        budget,
        lineItems: await api.budgets.lineItems.query({ budgetId: budget.id }),
      })),
    );
  }

  /** A signed-in page on the Budgets screen, its user owning what `seed` made. */
  async function session(width = 1400, seed: (api: Api) => Promise<unknown> = async () => {}) {
    const s = await signedInPage(
      app.browser,
      app.server,
      width,
      900,
      {},
      { before: (user) => seed(apiFor(user.accessToken)) },
    );
    await s.page.getByRole('heading', { name: 'Budgets', level: 1 }).waitFor();
    return { ...s, api: apiFor(s.user.accessToken) };
  }

  const seedJanuary = async (api: Api) => {
    await seedTransactions(api);
    return saveBudget(api, JANUARY);
  };

  const card = (page: Page, name: string) =>
    page.getByRole('region', { name: 'Budget list' }).getByRole('article', { name, exact: true });
  const cardNames = (page: Page) =>
    page.getByRole('region', { name: 'Budget list' }).locator('article h2').allTextContents();
  const selectedSection = (page: Page) => page.getByRole('region', { name: 'Selected Budget' });
  const column = (page: Page, title: string) => selectedSection(page).getByRole('region', { name: title, exact: true });
  const typeRow = (page: Page, label: string) =>
    column(page, 'Transaction Type Totals').getByRole('button', { name: new RegExp(`^${label}`) });
  const itemRow = (page: Page, label: string) =>
    column(page, 'Line Items by Type').getByRole('button', { name: new RegExp(`^${label}`) });
  const status = (page: Page) =>
    selectedSection(page)
      .getByRole('status')
      .filter({ hasText: /^(Showing|Filtered)/ });
  const lineItem = (page: Page, n: number) => page.getByRole('group', { name: `Line item ${n}`, exact: true });
  const editorButton = (page: Page, name: 'Save Budget' | 'Update Budget') =>
    page.getByRole('button', { name, exact: true });

  /** Label, figure and detail of each clickable overview row in a column. */
  async function overviewRows(section: Locator): Promise<string[][]> {
    return section
      .getByRole('button')
      .evaluateAll((buttons) =>
        buttons.map((b) => [...b.querySelectorAll(':scope span.MuiTypography-root')].map((s) => s.textContent)),
      );
  }

  async function tableRows(table: Locator): Promise<string[][]> {
    return table
      .locator('tr')
      .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));
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
    return table
      .locator('tbody tr[aria-rowindex]')
      .evaluateAll((rows) => rows.map((row) => row.children[2].querySelector('span[title]')?.textContent ?? ''));
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
  return {
    app,
    apiFor,
    SEED,
    BIG_SHOP_SPLIT,
    JANUARY,
    EXPECTED_TYPE_ROWS,
    EXPECTED_LINE_ITEM_ROWS,
    EXPECTED_BUDGETED_ROWS,
    ALL_JANUARY,
    seedTransactions,
    saveBudget,
    budgetsOf,
    session,
    seedJanuary,
    card,
    cardNames,
    selectedSection,
    column,
    typeRow,
    itemRow,
    status,
    lineItem,
    editorButton,
    overviewRows,
    tableRows,
    tableDescriptions,
    pressed,
    screenshot,
    selectJanuary,
  };
}
