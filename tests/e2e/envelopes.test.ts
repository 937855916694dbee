import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshotAndCheckWidth } from './harness';
import { useEnvelopesScreen } from './envelopes-screen';

const {
  SEED,
  seededSession,
  STANDARD,
  heading,
  card,
  cardNames,
  openButton,
  tags,
  formDialog,
  transactionsSection,
  screenshotFromTop,
  total,
  envelopesOf,
  tableDescriptions,
} = useEnvelopesScreen();

describe('Envelopes', () => {
  it('starts empty, validates the form, and creates envelopes whose cards show hand-computed totals', async () => {
    const { page, close, api, errors } = await seededSession();
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
    expect(stored).toMatchObject({
      name: 'Food',
      categories: ['Groceries', 'Dining'],
      color: '#4CAF50',
      isActive: true,
      description: null,
    });
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
    expect((await envelopesOf(api)).find((e) => e.name === 'Income')).toMatchObject({
      color: '#2196F3',
      description: 'Pay and refunds',
    });
    expect(createBodies).toHaveLength(2);
    expect(createBodies[1]).toContain('"description":"Pay and refunds"');
    expect(await cardNames(page)).toEqual(['Food', 'Income']);

    await expectNoSeriousA11yViolations(page, 'envelopes grid');
    await screenshotAndCheckWidth(page, 'envelopes-1400');
    expect(errors).toEqual([]);
    await close();
  });

  it('edits categories (the total follows), deactivates, and deletes only after confirmation', async () => {
    const { page, close, api, errors } = await seededSession(1400, STANDARD);
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
    expect((await envelopesOf(api)).find((e) => e.name === 'Food')).toMatchObject({
      categories: ['Groceries'],
      description: null,
      total: -4583,
    });

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
    await confirm
      .getByText('Are you sure you want to delete this envelope? This will unlink all associated transactions.', {
        exact: true,
      })
      .waitFor();
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
    expect(await api.transactions.list.query({ startDate: '2024-01-01', endDate: '2024-12-31' })).toHaveLength(
      SEED.length,
    );
    expect(errors).toEqual([]);
    await close();
  });

  it('filters totals by date range and clears the filter', async () => {
    const { page, close, errors } = await seededSession(1400, STANDARD);
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
    await expect
      .poll(() => tableDescriptions(section))
      .toEqual(['Valentine dinner', 'Bakery', 'Farmers market', 'Pizza', 'Supermarket']);
    expect(errors).toEqual([]);
    await close();
  });

  it("shows a card's transactions below the grid, 'No Transactions' when none, and Close hides them", async () => {
    const { page, close, errors } = await seededSession(1400, STANDARD);
    const food = card(page, 'Food');
    expect(await openButton(food).getAttribute('aria-pressed')).toBe('false');
    await openButton(food).click();
    const section = transactionsSection(page, 'Food');
    await section.waitFor();
    expect(await openButton(food).getAttribute('aria-pressed')).toBe('true');
    // Newest first, the shared table's default order.
    expect(await tableDescriptions(section)).toEqual([
      'Valentine dinner',
      'Bakery',
      'Farmers market',
      'Pizza',
      'Supermarket',
    ]);
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
    await close();
  });
});
