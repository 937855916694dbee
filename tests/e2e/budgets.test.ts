import { describe, expect, it } from 'vitest';
import type { LineItemDto } from '../../src/shared/schemas/budgets';
import { expectNoSeriousA11yViolations, signedInPage } from './harness';
import { useBudgetsScreen } from './budgets-screen';

const {
  app,
  apiFor,
  JANUARY,
  EXPECTED_TYPE_ROWS,
  EXPECTED_LINE_ITEM_ROWS,
  EXPECTED_BUDGETED_ROWS,
  ALL_JANUARY,
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
} = useBudgetsScreen();

describe('Budgets list', () => {
  it("shows 'Loading budgets...', then 'No budgets found.', and creates a budget with line items through the form", async () => {
    const s = await signedInPage(app.browser, app.server);
    const { page, close, errors } = s;
    const api = apiFor(s.user.accessToken);
    await api.transactions.create.mutate({
      postDate: '2024-03-01',
      description: 'Shop',
      amount: -100,
      category: 'Groceries',
    });
    await api.transactions.create.mutate({
      postDate: '2024-03-02',
      description: 'Bar',
      amount: -100,
      category: 'Dining',
    });

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
    expect(stored.budget).toMatchObject({
      name: 'March 2024',
      startDate: '2024-03-01',
      endDate: '2024-03-31',
      amount: 0,
    });
    expect(
      stored.lineItems.map(({ name, amount, type, relatedCategories }) => ({ name, amount, type, relatedCategories })),
    ).toEqual([
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
    await close();
  });

  it('edits a budget: the form is prefilled, a saved line item is deleted at once, Update Budget saves the rest', async () => {
    const { page, close, api, errors } = await session(1400, (a) => saveBudget(a, JANUARY));
    const january = card(page, 'January 2024');
    await january.waitFor();
    expect(await january.locator('dd').allTextContents()).toEqual(['2024-01-01', '2024-01-31', '5']);
    await january.getByRole('button', { name: 'Edit Budget January 2024' }).click();
    await page.getByRole('heading', { name: 'Edit Budget', level: 1 }).waitFor();
    // The budget being edited is in the URL, so a reload or a shared link opens the same form.
    expect(new URL(page.url()).pathname).toBe(`/budgets/${(await budgetsOf(api))[0].budget.id}/edit`);
    expect(await page.getByLabel('Budget Name').inputValue()).toBe('January 2024');
    expect(await page.getByLabel('Start Date').inputValue()).toBe('2024-01-01');
    expect(await page.getByLabel('End Date').inputValue()).toBe('2024-01-31');
    expect(await page.getByRole('group', { name: /^Line item \d+$/ }).count()).toBe(5);
    expect(await lineItem(page, 3).getByLabel('Name').inputValue()).toBe('Food');
    expect(await lineItem(page, 3).getByLabel('Amount').inputValue()).toBe('250.00');
    expect(await lineItem(page, 3).getByLabel('Related Categories').inputValue()).toBe('Groceries, Dining');
    expect(await lineItem(page, 5).getByRole('combobox', { name: 'Type' }).textContent()).toBe('Not counted');
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
    expect(stored.budget).toMatchObject({
      name: 'January 2024 (revised)',
      startDate: '2024-01-01',
      endDate: '2024-02-01',
    });
    expect(
      stored.lineItems.map(({ name, amount, type, relatedCategories }) => [name, amount, type, relatedCategories]),
    ).toEqual([
      ['Salary', 300000, 'Income', ['Salary']],
      ['Rent', 120000, 'Fixed', ['Rent']],
      ['Food', 30010, 'Variable', ['Groceries', 'Dining', 'Household']],
      ['Savings', 50000, 'NotCounted', ['Savings']],
      ['Fun', 2500, 'Variable', ['Fun']],
    ]);
    expect(errors).toEqual([]);
    await close();
  });

  it('copies a budget: only its line items come through, saved as a new budget', async () => {
    const { page, close, api, errors } = await session(1400, (a) => saveBudget(a, JANUARY));
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
    const shape = ({ name, amount, type, relatedCategories }: LineItemDto) => ({
      name,
      amount,
      type,
      relatedCategories,
    });
    expect(february.lineItems.map(shape)).toEqual(
      january.lineItems.filter((item) => item.name !== 'Household').map(shape),
    );
    // New items, not the originals moved over.
    expect(february.lineItems.every((item) => item.budgetId === february.budget.id)).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('deletes a budget only after confirmation', async () => {
    const { page, close, api, errors } = await session(1400, async (a) => {
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
    await close();
  });
});

describe('Selected budget and overview', () => {
  it('shows the hand-computed figures of the overview and the budget period in the table', async () => {
    const { page, close, errors } = await session(1400, seedJanuary);
    const select = card(page, 'January 2024').getByRole('button', { name: 'Select budget January 2024' });
    expect(await select.getAttribute('aria-pressed')).toBe('false');
    await selectJanuary(page);
    expect(await select.getAttribute('aria-pressed')).toBe('true');
    await selectedSection(page).getByRole('heading', { name: 'Selected Budget', level: 2 }).waitFor();

    expect(await overviewRows(column(page, 'Transaction Type Totals'))).toEqual(EXPECTED_TYPE_ROWS);
    expect(await selectedSection(page).getByTestId('overview-total').textContent()).toBe('$1,020.00');
    await column(page, 'Transaction Type Totals').getByText('Total (9 transactions)').waitFor();
    expect(await overviewRows(column(page, 'Line Items by Type'))).toEqual(EXPECTED_LINE_ITEM_ROWS);
    // Each group's actual of budgeted.
    const groups = column(page, 'Line Items by Type');
    await groups.getByRole('region', { name: 'Variable line items' }).getByText('$215.00 of $290.00').waitFor();
    await groups
      .getByRole('region', { name: 'Untracked line items' })
      .getByText('$65.00', { exact: true })
      .first()
      .waitFor();
    expect(await tableRows(column(page, 'Budgeted Amounts').getByRole('table'))).toEqual(EXPECTED_BUDGETED_ROWS);
    await column(page, 'Budgeted Amounts')
      .getByText('Budgeted net $1,510.00, actual net $1,585.00.', { exact: false })
      .waitFor();

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
    await close();
  });

  it('filters the table by type, line item, Untracked and split rows; clicking again clears; one at a time; a new selection resets', async () => {
    const { page, close, errors } = await session(1400, async (a) => {
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
    await expect.poll(() => tableDescriptions(page)).toEqual(['Big shop', 'Big shop food', 'Big shop household']);
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
    expect(await selectedSection(page).getByTestId('overview-total').textContent()).toBe('$1,800.00');
    await itemRow(page, 'Rent').click();
    await expect.poll(() => tableDescriptions(page)).toEqual(['Rent']);
    // Selecting the same card again reloads it and resets the filter.
    await card(page, 'Early January').getByRole('button', { name: 'Select budget Early January' }).click();
    await expect.poll(() => status(page).textContent()).toBe('Showing all 2 transactions');
    expect(await pressed(itemRow(page, 'Rent'))).toBe('false');
    expect(errors).toEqual([]);
    await close();
  });

  it('is reachable and usable from the keyboard: select a card, edit, and cancel', async () => {
    const { page, close } = await session(1400, seedJanuary);
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
    await close();
  });
});
