import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './harness';
import { useBudgetsScreen } from './budgets-screen';

// Split from budgets.test.ts so the two halves run in parallel workers; the helpers are in budgets-screen.ts.
const {
  JANUARY,
  saveBudget,
  budgetsOf,
  session,
  seedJanuary,
  card,
  cardNames,
  selectedSection,
  itemRow,
  status,
  lineItem,
  editorButton,
  tableDescriptions,
  screenshot,
  selectJanuary,
  column,
} = useBudgetsScreen();

describe('Budget errors', () => {
  it("shows 'Failed to fetch budgets or line items. Please try again.' when budgets.list or budgets.lineItems fail, and recovers", async () => {
    const { page, close } = await session(1400, (a) => saveBudget(a, JANUARY));
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
    await close();
  });

  it("shows 'Failed to fetch transactions' when the budget's transactions cannot be loaded", async () => {
    const { page, close } = await session(1400, seedJanuary);
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
    await close();
  });

  it("shows 'Failed to delete budget. Please try again.' and keeps the card", async () => {
    const { page, close, api } = await session(1400, (a) => saveBudget(a, JANUARY));
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
    await close();
  });

  it("shows 'Failed to delete line item. Please try again.' and keeps the item", async () => {
    const { page, close, api } = await session(1400, (a) => saveBudget(a, JANUARY));
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
    await close();
  });

  it("shows 'Failed to save the budget and line items. Please try again.' and a refused save leaves nothing half-saved", async () => {
    const { page, close, api } = await session(1400, (a) => saveBudget(a, JANUARY));
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
    await close();
  });
});

describe('Budgets layout', () => {
  it('fits 576 px: list, selected budget with overview and table, and the editor', async () => {
    const { page, close } = await session(576, async (a) => {
      await seedJanuary(a);
      await saveBudget(a, {
        ...JANUARY,
        name: 'A budget with a rather long name that has to wrap on a narrow screen',
        lineItems: [],
      });
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
    await close();
  });

  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    it(`explains an empty screen, and names groups and categories as a person reads them (${width} px)`, async () => {
      // Signed in at desktop width (the welcome line it waits for is hidden on a phone), then sized.
      const { page, close, api } = await session(1366);
      await page.setViewportSize({ width, height });
      const empty = page.getByRole('region', { name: 'No budgets found.' });
      await empty.getByText('A budget is your plan for a period', { exact: false }).waitFor();
      await expectNoSeriousA11yViolations(page, `empty budgets at ${width} px`);
      await empty.getByRole('link', { name: 'Create your first budget' }).click();
      await page.getByRole('heading', { name: 'Create Budget', level: 1 }).waitFor();
      await expectNoSeriousA11yViolations(page, `first budget form at ${width} px`);

      await seedJanuary(api);
      await page.goto(new URL('/', page.url()).href);
      await selectJanuary(page);
      // The one-word type reads as words; categories keep the spelling the person gave them.
      const groups = column(page, 'Line Items by Type');
      await groups.getByRole('heading', { name: 'Not counted', exact: true }).waitFor();
      expect(await groups.getByText('NotCounted').count()).toBe(0);
      expect(await itemRow(page, 'Untracked').textContent()).toContain('2 transactions: Fun, Uncategorized');
      await expectNoSeriousA11yViolations(page, `selected budget at ${width} px`);
      await close();
    });
  }
});
