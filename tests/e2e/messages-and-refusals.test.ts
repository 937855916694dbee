/**
 * Edits that will fail look so, messages say what happened and stay while they matter, and
 * the screens refuse what the server would refuse.
 */
import type { Page } from 'playwright-core';
import { restDataClient } from '../helpers/rest-client';
import { describe, expect, it } from 'vitest';
import { formatCents } from '../../src/shared/money';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { registerUser } from '../helpers/http';
import {
  expectNoSeriousA11yViolations,
  openPage,
  screenshotAndCheckWidth,
  signedInPage,
  trpcApi,
  useBrowserAndServer,
} from './harness';

const app = useBrowserAndServer();

async function seeded(width = 1400) {
  const session = await signedInPage(app.browser, app.server, width);
  const api = trpcApi(app.server, session.user.accessToken);
  const coffee = await api.transactions.create.mutate({
    postDate: '2024-01-05',
    description: 'Coffee Shop',
    amount: -450,
    category: 'Dining',
  });
  const groceries = await api.transactions.create.mutate({
    postDate: '2024-01-10',
    description: 'Grocery Store',
    amount: -8235,
    category: 'Groceries',
  });
  return { ...session, api, rest: restDataClient(app.server.url, session.user.accessToken), coffee, groceries };
}

const label = (tx: TransactionDto) =>
  `${tx.description} ${formatCents(tx.amount)} on ${tx.postDate}${tx.parentTransactionId !== null ? ' (split part)' : ''}`;

async function searchJanuary(page: Page) {
  await page.goto(`${app.server.url}/transactions?filters=open`);
  await page.getByRole('heading', { name: 'Transaction Search', level: 1 }).waitFor();
  await page.getByLabel('Start Date').fill('2024-01-01');
  await page.getByLabel('End Date').fill('2024-01-31');
  await page.getByText(/^Found \d+ transactions?( \(.*\))?$/).waitFor();
}

describe('messages', () => {
  it('registration names the problem under the field, without an internal prefix', async () => {
    await registerUser(app.server.url); // not the first account: the card opens on Login
    const { page, close } = await openPage(app.browser);
    await page.goto(app.server.url);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByLabel('Username').fill(`short${Date.now().toString(36)}`);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    const password = page.getByLabel('Password');
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await password.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('Password must be at least 8 characters');
    expect(await page.getByText('password:').count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'registration with a short password');
    await close();
  });

  it('an error notice stays until dismissed (successes go after 3 seconds: see transactions.test.ts)', async () => {
    const { page, close, coffee, rest } = await seeded();
    await page.clock.install();
    await searchJanuary(page);
    await rest.deleteTransaction(coffee.id);
    await page.getByLabel(`Type for ${label(coffee)}`).selectOption('charge');
    const alert = page
      .getByRole('alert')
      .filter({ hasText: `Failed to update transaction: Transaction ${coffee.id} not found` });
    await alert.waitFor();
    await page.clock.runFor(30_000);
    expect(await alert.isVisible()).toBe(true);
    await alert.getByRole('button', { name: 'Close' }).click();
    await alert.waitFor({ state: 'detached' });
    await close();
  });
});

describe('edits that cannot be made', () => {
  it("a split part's amount is disabled and says why; other changes save", async () => {
    const { page, close, api, groceries, rest } = await seeded();
    const split = await api.transactions.split.mutate({
      id: groceries.id,
      splits: [
        { amount: -5000, category: 'Groceries' },
        { amount: -3235, category: 'Home' },
      ],
    });
    const part = split.childTransactions[1];
    await searchJanuary(page);
    await page.getByRole('checkbox', { name: `Select transaction ${label(part)}`, exact: true }).check();
    await page.getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
    const amount = page.getByLabel('Amount');
    expect(await amount.isDisabled()).toBe(true);
    expect(await amount.inputValue()).toBe('-32.35');
    await page
      .getByText(
        'This is part of a split: change its amount by editing the split (select it, Inspect Split, then Edit Split)',
      )
      .waitFor();
    await page.getByLabel('Description').fill('Cleaning things');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Transaction updated successfully').waitFor();
    expect(await rest.transaction(part.id)).toMatchObject({
      description: 'Cleaning things',
      amount: -3235,
    });
    await screenshotAndCheckWidth(page, 'edit-split-part-1400');
    await expectNoSeriousA11yViolations(page, 'editing a split part');
    await close();
  });
});

describe("'Uncategorized' means no category", () => {
  it('the Categories screen and the transaction forms refuse the name; nothing is created', async () => {
    const { page, close, api, coffee, rest } = await seeded();
    await page.goto(`${app.server.url}/categories`);
    await page.getByLabel('Add a New Category').fill('UNCATEGORIZED');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: "'UNCATEGORIZED' is reserved for transactions without a category: choose another name" })
      .waitFor();
    expect((await api.categories.list.query()).map((c) => c.name).sort()).toEqual(['Dining', 'Groceries']);

    // The edit form names it under Category and saves nothing.
    await searchJanuary(page);
    await page.getByRole('checkbox', { name: `Select transaction ${label(coffee)}`, exact: true }).check();
    await page.getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.getByLabel('Category').fill('uncategorized');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByText("'uncategorized' is reserved for transactions without a category: leave the category empty instead")
      .waitFor();
    expect((await rest.transaction(coffee.id)).category).toBe('Dining');
    await close();
  });
});

describe('a category belongs to one line item of a budget', () => {
  it('the editor names the category and the line item that has it, and saves nothing', async () => {
    const { page, close, api } = await seeded();
    await page.goto(`${app.server.url}/create-budget`);
    await page.getByLabel('Budget Name').fill('January');
    await page.getByLabel('Start Date').fill('2024-01-01');
    await page.getByLabel('End Date').fill('2024-01-31');
    await page.getByRole('button', { name: 'Add Line Item' }).click();
    await page.getByRole('button', { name: 'Add Line Item' }).click();
    const food = page.getByRole('group', { name: /^Line item 1/ });
    const variable = page.getByRole('group', { name: /^Line item 2/ });
    await food.getByLabel('Name').fill('Food');
    await food.getByLabel('Amount').fill('400');
    await food.getByLabel('Related Categories').fill('Groceries, Dining');
    await variable.getByLabel('Name').fill('Variable');
    await variable.getByLabel('Amount').fill('100');
    await variable.getByLabel('Related Categories').fill('Coffee, groceries');
    await variable
      .getByText('groceries is already in line item 1: Food (a category can belong to one line item)')
      .waitFor();
    // The picker offers Food's categories only as taken.
    await variable.getByRole('combobox', { name: 'Add category' }).click();
    expect(
      await page.getByRole('option', { name: 'Dining (in line item 1: Food)' }).getAttribute('aria-disabled'),
    ).toBe('true');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save Budget' }).click();
    expect(new URL(page.url()).pathname).toBe('/create-budget');
    expect(await api.budgets.list.query()).toEqual([]);
    await expectNoSeriousA11yViolations(page, 'budget editor with a shared category');
    await screenshotAndCheckWidth(page, 'budget-editor-shared-category-1400');

    await variable.getByLabel('Related Categories').fill('Coffee');
    await page.getByRole('button', { name: 'Save Budget' }).click();
    await page.getByRole('heading', { name: 'Budgets', level: 1 }).waitFor();
    expect(await api.budgets.list.query()).toHaveLength(1);
    await close();
  });
});
