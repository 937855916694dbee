import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserAndServer, trpcApi, expectNoSeriousA11yViolations, screenshotAndCheckWidth, signedInPage, type TrpcApi } from './harness';

const app = useBrowserAndServer();

const apiFor = (token: string) => trpcApi(app.server, token);
type Api = TrpcApi;

/**
 * Hand-computed expectations (cents):
 * - Groceries (any case): -1234 -2550 -799 = -4583; in February only -799.
 * - Dining: -1800 -6420 = -8220; in February only -6420.
 * - Food = Groceries + Dining: -12803 ($128.03, 5 transactions); February -7219 ($72.19, 2).
 * - Income = Salary + Refunds: 250000 + 500 = 250500 ($2,505.00, 2); February 500 ($5.00, 1).
 * - 'Travel' matches nothing: $0.00, 0 transactions.
 */
const SEED = [
  { postDate: '2024-01-05', description: 'Supermarket', amount: -1234, category: 'Groceries' },
  { postDate: '2024-01-12', description: 'Pizza', amount: -1800, category: 'Dining' },
  { postDate: '2024-01-20', description: 'Farmers market', amount: -2550, category: 'groceries' },
  { postDate: '2024-01-31', description: 'Paycheck', amount: 250000, category: 'Salary' },
  { postDate: '2024-02-03', description: 'Bakery', amount: -799, category: 'Groceries' },
  { postDate: '2024-02-14', description: 'Valentine dinner', amount: -6420, category: 'Dining' },
  { postDate: '2024-02-15', description: 'Refund', amount: 500, category: 'Refunds' },
  { postDate: '2024-03-02', description: 'Bookshop', amount: -2000, category: 'Books' },
];

async function seededSession(width = 1400, envelopes: { name: string; categories: string[]; color?: string; description?: string }[] = []) {
  const session = await signedInPage(
    app.browser,
    app.server,
    width,
    900,
    {},
    {
      path: '/envelopes',
      before: async (user) => {
        const api = apiFor(user.accessToken);
        for (const tx of SEED) await api.transactions.create.mutate(tx);
        for (const envelope of envelopes) await api.envelopes.create.mutate(envelope);
      },
    },
  );
  await session.page.getByRole('heading', { name: /^Envelopes \(\d+\)$/, level: 1 }).waitFor();
  return { ...session, api: apiFor(session.user.accessToken) };
}

const STANDARD = [
  { name: 'Food', categories: ['Groceries', 'Dining'], description: 'Eating in and out' },
  { name: 'Income', categories: ['Salary', 'Refunds'], color: '#2196F3' },
  { name: 'Travel', categories: ['Travel'], color: '#FF9800' },
];

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const card = (page: Page, name: string) => page.getByRole('list', { name: 'Envelopes' }).getByRole('listitem', { name, exact: true });
const cardNames = (page: Page) => page.getByRole('list', { name: 'Envelopes' }).locator(':scope > li h2').allTextContents();
const openButton = (c: Locator) => c.getByRole('button').first();
const tags = (c: Locator) => c.locator('.MuiChip-label').allTextContents();
const formDialog = (page: Page, title: 'Create Envelope' | 'Edit Envelope') => page.getByRole('dialog', { name: title });
const transactionsSection = (page: Page, name: string) => page.getByRole('region', { name: `Transactions in ${name}` });

/** Full-page screenshots from the top: a scrolled page would draw the sticky navigation bar mid-page. */
async function screenshotFromTop(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshotAndCheckWidth(page, name);
}

/** The total shown on a card and whether it is red (red channel clearly above green). */
async function total(c: Locator): Promise<{ text: string; red: boolean }> {
  const amount = c.locator('[data-negative]');
  const text = (await amount.textContent()) ?? '';
  const [r, g] = (await amount.evaluate((el) => getComputedStyle(el).color)).match(/\d+/g)!.map(Number);
  return { text, red: r > g + 60 };
}

async function envelopesOf(api: Api, range?: { startDate?: string; endDate?: string }) {
  return api.envelopes.list.query(range);
}

async function tableDescriptions(section: Locator): Promise<string[]> {
  return section
    .getByRole('table', { name: 'Transactions' })
    .locator('tbody tr[aria-rowindex]')
    .evaluateAll((rows) => rows.map((row) => row.children[2].querySelector('span[title]')?.textContent ?? ''));
}

describe('Envelopes', () => {
  it('starts empty, validates the form, and creates envelopes whose cards show hand-computed totals', async () => {
    const { page, context, api, errors } = await seededSession();
    // The create calls as sent, to check the description is left out when empty.
    const createBodies: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('envelopes.create')) createBodies.push(request.postData() ?? '');
    });
    expect(await heading(page).textContent()).toBe('Envelopes (0)');
    await page.getByRole('heading', { name: 'No Envelopes Yet' }).waitFor();
    // The only create button is the empty state's.
    expect(await page.getByRole('button', { name: 'Create Envelope' }).count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'Show All Time' }).isChecked()).toBe(true);
    await expectNoSeriousA11yViolations(page, 'envelopes empty');

    await page.getByRole('button', { name: 'Create Envelope' }).click();
    const dialog = formDialog(page, 'Create Envelope');
    await dialog.waitFor();
    // Only editing offers Active; Green is the default colour.
    expect(await dialog.getByRole('checkbox', { name: 'Active' }).count()).toBe(0);
    expect(await dialog.getByRole('radio', { name: 'Green', exact: true }).isChecked()).toBe(true);
    expect(await dialog.getByLabel('Description').getAttribute('rows')).toBe('3');
    const save = dialog.getByRole('button', { name: 'Save Envelope' });
    await save.click();
    await dialog.getByText('Envelope name is required', { exact: true }).waitFor();
    await dialog.getByText('At least one category is required', { exact: true }).waitFor();
    await expectNoSeriousA11yViolations(page, 'envelope form with errors');
    // Blank name and a category list of only commas and spaces are still refused.
    await dialog.getByLabel('Name').fill('   ');
    await dialog.getByLabel('Categories').fill(' , ,  ');
    await save.click();
    await dialog.getByText('Envelope name is required', { exact: true }).waitFor();
    await dialog.getByText('At least one category is required', { exact: true }).waitFor();
    await dialog.getByLabel('Name').fill('  Food  ');
    await save.click();
    await dialog.getByText('At least one category is required', { exact: true }).waitFor();
    expect(await dialog.getByText('Envelope name is required').count()).toBe(0);
    expect(await envelopesOf(api)).toEqual([]);

    await dialog.getByLabel('Categories').fill(' Groceries, Dining, ,groceries ');
    await save.click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText("Envelope 'Food' created").waitFor();
    await expect.poll(() => heading(page).textContent()).toBe('Envelopes (1)');
    const [stored] = await envelopesOf(api);
    expect(stored).toMatchObject({ name: 'Food', categories: ['Groceries', 'Dining'], color: '#4CAF50', isActive: true, description: null });
    expect(createBodies).toHaveLength(1);
    expect(createBodies[0]).toContain('"Food"');
    expect(createBodies[0]).not.toContain('description');

    const food = card(page, 'Food');
    expect(await tags(food)).toEqual(['Groceries', 'Dining']);
    expect(await total(food)).toEqual({ text: '$128.03', red: true });
    await food.getByText('5 transactions', { exact: true }).waitFor();
    await food.getByText('Transactions are linked automatically by category.').waitFor();
    expect(await food.getByText('INACTIVE').count()).toBe(0);
    expect(await food.evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe('rgb(76, 175, 80)');

    // The header now has the create button; choose Blue with the keyboard.
    await page.getByRole('button', { name: 'Create Envelope' }).click();
    const second = formDialog(page, 'Create Envelope');
    await second.getByLabel('Name').fill('Income');
    await second.getByLabel('Description').fill('Pay and refunds');
    await second.getByLabel('Categories').fill('Salary, Refunds');
    await second.getByRole('radio', { name: 'Green', exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await second.getByRole('radio', { name: 'Blue', exact: true }).isChecked()).toBe(true);
    await page.keyboard.press('Enter');
    await second.waitFor({ state: 'hidden' });
    await expect.poll(() => heading(page).textContent()).toBe('Envelopes (2)');
    const income = card(page, 'Income');
    expect(await total(income)).toEqual({ text: '$2,505.00', red: false });
    await income.getByText('2 transactions', { exact: true }).waitFor();
    await income.getByText('Pay and refunds').waitFor();
    expect(await income.evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe('rgb(33, 150, 243)');
    expect((await envelopesOf(api)).find((e) => e.name === 'Income')).toMatchObject({ color: '#2196F3', description: 'Pay and refunds' });
    expect(createBodies).toHaveLength(2);
    expect(createBodies[1]).toContain('"description":"Pay and refunds"');
    expect(await cardNames(page)).toEqual(['Food', 'Income']);

    await expectNoSeriousA11yViolations(page, 'envelopes grid');
    await screenshotAndCheckWidth(page, 'envelopes-1400');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('edits categories (the total follows), deactivates, and deletes only after confirmation', async () => {
    const { page, context, api, errors } = await seededSession(1400, STANDARD);
    expect(await heading(page).textContent()).toBe('Envelopes (3)');
    const food = card(page, 'Food');
    expect(await total(food)).toEqual({ text: '$128.03', red: true });

    await food.getByRole('button', { name: 'Edit Food' }).click();
    let dialog = formDialog(page, 'Edit Envelope');
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Food');
    expect(await dialog.getByLabel('Description').inputValue()).toBe('Eating in and out');
    expect(await dialog.getByLabel('Categories').inputValue()).toBe('Groceries, Dining');
    expect(await dialog.getByRole('checkbox', { name: 'Active' }).isChecked()).toBe(true);
    await dialog.getByLabel('Categories').fill('Groceries');
    await dialog.getByLabel('Description').fill('');
    await dialog.getByRole('button', { name: 'Save Envelope' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText("Envelope 'Food' updated").waitFor();
    await expect.poll(async () => (await total(food)).text).toBe('$45.83');
    await food.getByText('3 transactions', { exact: true }).waitFor();
    expect(await tags(food)).toEqual(['Groceries']);
    expect((await envelopesOf(api)).find((e) => e.name === 'Food')).toMatchObject({ categories: ['Groceries'], description: null, total: -4583 });

    // Deactivate through Active.
    await food.getByRole('button', { name: 'Edit Food' }).click();
    dialog = formDialog(page, 'Edit Envelope');
    await dialog.getByRole('checkbox', { name: 'Active' }).uncheck();
    await dialog.getByRole('button', { name: 'Save Envelope' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await food.getByText('INACTIVE', { exact: true }).waitFor();
    expect(await card(page, 'Income').getByText('INACTIVE').count()).toBe(0);
    expect((await envelopesOf(api)).find((e) => e.name === 'Food')?.isActive).toBe(false);
    await expectNoSeriousA11yViolations(page, 'envelopes with an inactive one');

    // Delete: Cancel keeps the envelope, confirming removes it.
    const income = card(page, 'Income');
    await income.getByRole('button', { name: 'Delete Income' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Envelope' });
    await confirm.getByText('Are you sure you want to delete this envelope? This will unlink all associated transactions.', { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(await cardNames(page)).toEqual(['Food', 'Income', 'Travel']);
    expect(await envelopesOf(api)).toHaveLength(3);
    await income.getByRole('button', { name: 'Delete Income' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await expect.poll(() => cardNames(page)).toEqual(['Food', 'Travel']);
    expect(await heading(page).textContent()).toBe('Envelopes (2)');
    await page.getByText("Envelope 'Income' deleted").waitFor();
    expect((await envelopesOf(api)).map((e) => e.name)).toEqual(['Food', 'Travel']);
    // Deleting an envelope changes no transaction.
    expect(await api.transactions.list.query({ startDate: '2024-01-01', endDate: '2024-12-31' })).toHaveLength(SEED.length);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('filters totals by date range and clears the filter', async () => {
    const { page, context, errors } = await seededSession(1400, STANDARD);
    const allTime = page.getByRole('checkbox', { name: 'Show All Time' });
    expect(await page.getByLabel('From', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Clear Filter' }).count()).toBe(0);

    await allTime.uncheck();
    await page.getByLabel('From', { exact: true }).fill('2024-02-01');
    await page.getByLabel('To', { exact: true }).fill('2024-02-29');
    await expect.poll(async () => (await total(card(page, 'Food'))).text).toBe('$72.19');
    expect(await total(card(page, 'Food'))).toEqual({ text: '$72.19', red: true });
    await card(page, 'Food').getByText('2 transactions', { exact: true }).waitFor();
    expect(await total(card(page, 'Income'))).toEqual({ text: '$5.00', red: false });
    await card(page, 'Income').getByText('1 transaction', { exact: true }).waitFor();
    expect(await heading(page).textContent()).toBe('Envelopes (3)');

    // The selected envelope's transactions follow the range too.
    await openButton(card(page, 'Food')).click();
    const section = transactionsSection(page, 'Food');
    await expect.poll(() => tableDescriptions(section)).toEqual(['Valentine dinner', 'Bakery']);

    // From only: open-ended.
    await page.getByLabel('To', { exact: true }).fill('');
    await expect.poll(async () => (await total(card(page, 'Food'))).text).toBe('$72.19');
    await page.getByLabel('From', { exact: true }).fill('2024-01-15');
    await expect.poll(async () => (await total(card(page, 'Food'))).text).toBe('$97.69');

    // From after To is refused without losing the cards.
    await page.getByLabel('To', { exact: true }).fill('2024-01-01');
    await page.getByText('To must not be before From').waitFor();
    expect(await total(card(page, 'Food'))).toEqual({ text: '$97.69', red: true });
    expect(await page.getByRole('alert').count()).toBe(0);

    await page.getByRole('button', { name: 'Clear Filter' }).click();
    expect(await allTime.isChecked()).toBe(true);
    expect(await page.getByLabel('From', { exact: true }).count()).toBe(0);
    await expect.poll(async () => (await total(card(page, 'Food'))).text).toBe('$128.03');
    expect(await total(card(page, 'Income'))).toEqual({ text: '$2,505.00', red: false });
    await expect.poll(() => tableDescriptions(section)).toEqual(['Valentine dinner', 'Bakery', 'Farmers market', 'Pizza', 'Supermarket']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows a card's transactions below the grid, 'No Transactions' when none, and Close hides them", async () => {
    const { page, context, errors } = await seededSession(1400, STANDARD);
    const food = card(page, 'Food');
    expect(await openButton(food).getAttribute('aria-pressed')).toBe('false');
    await openButton(food).click();
    const section = transactionsSection(page, 'Food');
    await section.waitFor();
    expect(await openButton(food).getAttribute('aria-pressed')).toBe('true');
    // Newest first, the shared table's default order.
    expect(await tableDescriptions(section)).toEqual(['Valentine dinner', 'Bakery', 'Farmers market', 'Pizza', 'Supermarket']);
    await section.getByText('5 transactions, total spent $128.03').waitFor();
    await expectNoSeriousA11yViolations(page, 'envelope transactions');
    await screenshotFromTop(page, 'envelopes-transactions-1400');

    await section.getByRole('button', { name: 'Close' }).click();
    await section.waitFor({ state: 'hidden' });
    // Focus goes back to the card that opened the list.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await openButton(food).getAttribute('id'));

    // Keyboard: Enter on a focused card; an envelope with no matching transactions.
    await openButton(card(page, 'Travel')).focus();
    await page.keyboard.press('Enter');
    const travel = transactionsSection(page, 'Travel');
    await travel.getByText('No Transactions', { exact: true }).waitFor();
    expect(await total(card(page, 'Travel'))).toEqual({ text: '$0.00', red: false });
    await card(page, 'Travel').getByText('0 transactions', { exact: true }).waitFor();
    // Picking another card replaces the list; picking it again hides it.
    await openButton(card(page, 'Income')).click();
    await transactionsSection(page, 'Income').waitFor();
    expect(await travel.count()).toBe(0);
    expect(await tableDescriptions(transactionsSection(page, 'Income'))).toEqual(['Refund', 'Paycheck']);
    await openButton(card(page, 'Income')).click();
    await transactionsSection(page, 'Income').waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is usable from the keyboard: dialogs open with Enter and close with Escape', async () => {
    const { page, context, api } = await seededSession(1400, STANDARD);
    const create = page.getByRole('button', { name: 'Create Envelope' });
    await create.focus();
    await page.keyboard.press('Enter');
    const dialog = formDialog(page, 'Create Envelope');
    await dialog.waitFor();
    // Focus starts in Name and stays inside the dialog.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent)).toMatch(/^Name/);
    await page.keyboard.type('Never saved');
    for (let i = 0; i < 25; i++) await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await create.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await envelopesOf(api)).toHaveLength(3);

    // Reopening starts from an empty form.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Escape also cancels the delete confirmation.
    await card(page, 'Travel').getByRole('button', { name: 'Delete Travel' }).focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Delete Envelope' });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    expect(await cardNames(page)).toEqual(['Food', 'Income', 'Travel']);
    await context.close();
  });

  it("shows the server's refusal, 'Failed to save envelope', 'Failed to delete envelope' and 'Failed to fetch envelopes'", async () => {
    const { page, context, api } = await seededSession(1400, STANDARD);
    // The server refuses a name over 255 characters: its message is shown.
    await page.getByRole('button', { name: 'Create Envelope' }).click();
    const dialog = formDialog(page, 'Create Envelope');
    await dialog.getByLabel('Name').fill('x'.repeat(256));
    await dialog.getByLabel('Categories').fill('Books');
    await dialog.getByRole('button', { name: 'Save Envelope' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Envelope name must be at most 255 characters' }).waitFor();
    expect(await dialog.getByRole('alert').textContent()).not.toBe('Failed to save envelope');
    expect(await dialog.isVisible()).toBe(true);

    // A call that never reaches the server gives the fallback text.
    await page.route('**/trpc/envelopes.create**', (route) => route.abort());
    await dialog.getByLabel('Name').fill('Books');
    await dialog.getByRole('button', { name: 'Save Envelope' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: /^Failed to save envelope$/ })
      .waitFor();
    await page.unroute('**/trpc/envelopes.create**');
    await dialog.getByRole('button', { name: 'Save Envelope' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => cardNames(page)).toEqual(['Books', 'Food', 'Income', 'Travel']);
    expect(await total(card(page, 'Books'))).toEqual({ text: '$20.00', red: true });

    await page.route('**/trpc/envelopes.delete**', (route) => route.abort());
    await card(page, 'Books').getByRole('button', { name: 'Delete Books' }).click();
    await page.getByRole('dialog', { name: 'Delete Envelope' }).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Failed to delete envelope$/ })
      .waitFor();
    expect(await cardNames(page)).toEqual(['Books', 'Food', 'Income', 'Travel']);
    expect(await envelopesOf(api)).toHaveLength(4);

    // Matched by path: the list may share a batched request with other queries.
    const listCalls = (url: URL) => url.pathname.includes('envelopes.list');
    await page.route(listCalls, (route) => route.abort());
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'Failed to fetch envelopes' }).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('list', { name: 'Envelopes' }).count()).toBe(0);
    expect(await page.getByText('No Envelopes Yet').count()).toBe(0);
    // Retry once the server can be reached again.
    await page.unroute(listCalls);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => cardNames(page)).toEqual(['Books', 'Food', 'Income', 'Travel']);
    await context.close();
  });

  it('fits a 576 px screen: grid, filter, transactions and the modal', async () => {
    const { page, context, api } = await seededSession(576, [
      ...STANDARD,
      { name: 'A rather long envelope name that has to wrap on narrow screens', categories: ['Books', 'Magazines', 'Newspapers'] },
    ]);
    const [, food] = await envelopesOf(api);
    await api.envelopes.update.mutate({ id: food.id, data: { isActive: false } });
    await page.reload();
    await card(page, 'Food').getByText('INACTIVE', { exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Show All Time' }).uncheck();
    await page.getByLabel('From', { exact: true }).fill('2024-01-01');
    await openButton(card(page, 'Food')).click();
    await transactionsSection(page, 'Food').waitFor();
    await screenshotFromTop(page, 'envelopes-576');
    await expectNoSeriousA11yViolations(page, 'envelopes at 576 px');

    await card(page, 'Income').getByRole('button', { name: 'Edit Income' }).click();
    const dialog = formDialog(page, 'Edit Envelope');
    await dialog.getByRole('radio', { name: 'Light Green' }).waitFor();
    await screenshotFromTop(page, 'envelopes-dialog-576');
    await expectNoSeriousA11yViolations(page, 'envelope dialog at 576 px');
    await context.close();
  });
});
