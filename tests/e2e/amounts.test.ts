/**
 * Every number a person types is stored as they meant it (amounts, balances, line items, split
 * parts and the search bounds), in an en-US and a de-DE browser.
 */
import type { Page } from 'playwright-core';
import { restDataClient } from '../helpers/rest-client';
import { describe, expect, it } from 'vitest';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import {
  expectNoSeriousA11yViolations,
  screenshotAndCheckWidth,
  signedInPage,
  trpcApi,
  useBrowserAndServer,
  type TrpcApi,
} from './harness';

const app = useBrowserAndServer();

async function session(locale: 'en-US' | 'de-DE', width = 1400) {
  const s = await signedInPage(app.browser, app.server, width, 900, { locale });
  const api = trpcApi(app.server, s.user.accessToken);
  await api.accounts.create.mutate({ name: 'Checking', type: 'checking', balance: 0 });
  return { ...s, api, rest: restDataClient(app.server.url, s.user.accessToken) };
}

async function all(api: TrpcApi): Promise<TransactionDto[]> {
  return api.transactions.list.query({ startDate: '1900-01-01', endDate: '2100-12-31' });
}

/** Fills the Create Transaction form and saves. */
async function create(page: Page, description: string, amount: string) {
  await page.getByLabel('Date').fill('2024-03-03');
  await page.getByLabel('Description').fill(description);
  await page.getByLabel('Amount').fill(amount);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

const amountOf = async (api: TrpcApi, description: string) =>
  (await all(api)).find((tx) => tx.description === description)?.amount;

describe('amounts typed into Create Transaction', () => {
  it.each([
    [
      'en-US',
      [
        ['-100,50', -10050],
        ['-100.50', -10050],
        ['1,234.56', 123456],
        ['1.234,56', 123456],
        ['1 234,56', 123456],
        ['(12.50)', -1250],
        ['\u221212.50', -1250],
        ['-$12.50', -1250],
        ['12,50 €', 1250],
      ],
    ],
    [
      'de-DE',
      [
        ['-100,50', -10050],
        ['-100.50', -10050],
        ['1.234,56', 123456],
        ['-€ 3,20', -320],
      ],
    ],
  ] as const)('%s: stores every notation as meant, never scaled', async (locale, cases) => {
    const { page, close, api, errors } = await session(locale);
    await page.goto(`${app.server.url}/create-transaction`);
    await page.getByRole('heading', { name: 'Create Transaction', level: 1 }).waitFor();
    for (const [text, cents] of cases) {
      await create(page, `Typed ${text}`, text);
      await expect.poll(() => amountOf(api, `Typed ${text}`), { message: text }).toBe(cents);
      await page.getByText('Transaction created successfully').waitFor();
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('shows what an ambiguous amount was read as, by the browser language', async () => {
    for (const [locale, shown, cents] of [
      ['en-US', '1,234.00', 123400],
      ['de-DE', '1,23', 123],
    ] as const) {
      const { page, close, api } = await session(locale);
      await page.goto(`${app.server.url}/create-transaction`);
      await page.getByLabel('Amount').fill('1,234');
      await page.getByLabel('Description').focus();
      await expect.poll(() => page.getByLabel('Amount').inputValue()).toBe(shown);
      await page.getByText(`Read as ${shown}`).waitFor();
      await create(page, 'Ambiguous', '1,234');
      await expect.poll(() => amountOf(api, 'Ambiguous')).toBe(cents);
      await close();
    }
  });

  it('keeps letters in the field and names the problem there; nothing is saved', async () => {
    const { page, close, api } = await session('en-US');
    await page.goto(`${app.server.url}/create-transaction`);
    for (const text of ['12abc', 'abc', '12.50.30', '1,2,3']) {
      await create(page, 'Not an amount', text);
      expect(await page.getByLabel('Amount').inputValue()).toBe(text);
      await page.getByText('Enter an amount like -12.50').waitFor();
      expect(await page.getByText('Amount is required').count()).toBe(0);
    }
    await expectNoSeriousA11yViolations(page, 'create transaction with an amount error');
    expect(await all(api)).toEqual([]);
    // Leaving the field says so at once, too.
    await page.getByLabel('Amount').fill('7x');
    await page.getByLabel('Description').focus();
    await page.getByText('Enter an amount like -12.50').waitFor();
    await close();
  });
});

describe('every other amount field', () => {
  it('de-DE: the account balance, a line item and split parts read the decimal comma', async () => {
    const { page, close, api } = await session('de-DE');
    // Account balance (Upload screen, Accounts widget).
    await page.goto(`${app.server.url}/upload`);
    await page.getByRole('button', { name: 'Add Account' }).click();
    const form = page.getByRole('form', { name: 'Add account' });
    await form.getByLabel('Name').fill('Savings');
    await form.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'savings' }).click();
    await form.getByLabel('Balance').fill('100,50');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Account created successfully').waitFor();
    const accounts = await api.accounts.list.query();
    expect(accounts.find((a) => a.name === 'Savings')?.balance).toBe(10050);

    // A line item of a new budget.
    await page.goto(`${app.server.url}/create-budget`);
    await page.getByLabel('Budget Name').fill('März');
    await page.getByLabel('Start Date').fill('2024-03-01');
    await page.getByLabel('End Date').fill('2024-03-31');
    await page.getByRole('button', { name: 'Add Line Item' }).click();
    const item = page.getByRole('group', { name: 'Line item 1' });
    await item.getByLabel('Name').fill('Lebensmittel');
    await item.getByLabel('Amount').fill('1.234,56');
    await page.getByRole('button', { name: 'Save Budget' }).click();
    await page.getByRole('heading', { name: 'Budgets', level: 1 }).waitFor();
    const [budget] = await api.budgets.list.query();
    const [lineItem] = await api.budgets.lineItems.query({ budgetId: budget.id });
    expect(lineItem.amount).toBe(123456);

    // Split parts of -82,35.
    const tx = await api.transactions.create.mutate({
      postDate: '2024-03-05',
      description: 'Supermarkt',
      amount: -8235,
    });
    await page.goto(`${app.server.url}/transactions?filters=open`);
    await page.getByRole('button', { name: 'Last year' }).waitFor();
    await page.getByLabel('Start Date').fill('2024-03-01');
    await page.getByLabel('End Date').fill('2024-03-31');
    await page.getByRole('checkbox', { name: /^Select transaction Supermarkt/ }).check();
    await page.getByRole('button', { name: 'Split Transaction' }).click();
    const dialog = page.getByRole('dialog', { name: 'Split Transaction' });
    await dialog.getByRole('group', { name: 'Split 1' }).getByLabel('Amount').fill('50,10');
    await dialog.getByRole('group', { name: 'Split 1' }).getByLabel('Category').fill('Essen');
    await dialog.getByRole('group', { name: 'Split 2' }).getByLabel('Amount').fill('32,25');
    await dialog.getByRole('group', { name: 'Split 2' }).getByLabel('Category').fill('Haushalt');
    await dialog.getByRole('button', { name: 'Save Split' }).click();
    await dialog.waitFor({ state: 'detached' });
    const split = await api.transactions.splits.query({ id: tx.id });
    expect(split.childTransactions.map((c) => c.amount)).toEqual([-5010, -3225]);
    await close();
  });

  it('search bounds: letters are named at the field; signed bounds are read as sizes', async () => {
    const { page, close, api } = await session('en-US');
    for (const [description, amount] of [
      ['Small', -4000],
      ['Coffee beans', -6150],
      ['Refund', 9000],
      ['Big', -20000],
    ] as const) {
      await api.transactions.create.mutate({ postDate: '2024-03-05', description, amount });
    }
    await page.goto(`${app.server.url}/transactions?filters=open`);
    await page.getByLabel('Start Date').fill('2024-03-01');
    await page.getByLabel('End Date').fill('2024-03-31');
    const banner = page.getByText(/^Found \d+ transactions$/);
    await page.getByText('Found 4 transactions').waitFor();
    expect(await page.getByText('Amounts are compared by size (the sign is ignored)').count()).toBe(2);

    // Letters: the field says what is wrong and the search does not run unfiltered.
    let searches = 0;
    page.on('request', (request) => {
      if (request.url().includes('transactions.list')) searches += 1;
    });
    await page.getByLabel('Min Amount').fill('abc');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Enter an amount like -12.50').waitFor();
    expect(await page.getByLabel('Min Amount').inputValue()).toBe('abc');
    expect(searches).toBe(0);

    // Min -150 and Max -50: sizes 50 to 150, either sign.
    await page.getByLabel('Min Amount').fill('-150');
    await page.getByLabel('Max Amount').fill('-50');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Found 2 transactions').waitFor();
    expect(await page.getByRole('table', { name: 'Transactions' }).getByText('Coffee beans').count()).toBe(1);
    expect(await page.getByRole('table', { name: 'Transactions' }).getByText('Refund').count()).toBe(1);
    // Search folded the form into its summary line: open it again.
    await page.getByRole('button', { name: /^Filters: / }).click();

    // Nothing of that size: the empty table says which sizes were searched.
    await page.getByLabel('Min Amount').fill('');
    await page.getByLabel('Max Amount').fill('-5');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Found 0 transactions').waitFor();
    await page.getByText('No transactions of size up to $5.00 (either sign) match these filters.').waitFor();
    expect(await banner.count()).toBe(1);
    await close();
  });
});

describe('sign changes', () => {
  it('asks before an edit turns an expense into income', async () => {
    const { page, close, api, rest } = await session('en-US');
    const coffee = await api.transactions.create.mutate({
      postDate: '2024-03-05',
      description: 'Coffee',
      amount: -703,
      type: 'charge',
    });
    await page.goto(`${app.server.url}/transactions?filters=open`);
    await page.getByLabel('Start Date').fill('2024-03-01');
    await page.getByLabel('End Date').fill('2024-03-31');
    await page.getByRole('checkbox', { name: /^Select transaction Coffee/ }).check();
    await page.getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
    await page.getByLabel('Amount').fill('12.50');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const question = page.getByRole('dialog', { name: 'Change the sign?' });
    await question
      .getByText(
        "This turns an expense into income: -7.03 becomes 12.50. Its type stays 'charge' unless you change Type.",
      )
      .waitFor();
    await expectNoSeriousA11yViolations(page, 'sign change question');
    await question.getByRole('button', { name: 'Cancel' }).click();
    await question.waitFor({ state: 'detached' });
    expect((await rest.transaction(coffee.id)).amount).toBe(-703);

    // Confirmed, with the type changed too.
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('listbox').getByRole('option', { name: 'credit' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await question.getByRole('button', { name: 'Save' }).click();
    await question.waitFor({ state: 'detached' });
    await page.getByText('Transaction updated successfully').waitFor();
    expect(await rest.transaction(coffee.id)).toMatchObject({ amount: 1250, type: 'credit' });

    // The same sign asks nothing.
    await page.getByLabel('Amount').fill('13');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await rest.transaction(coffee.id)).amount).toBe(1300);
    expect(await question.count()).toBe(0);
    await close();
  });

  it('fits 576 px in de-DE', async () => {
    const { page, close } = await session('de-DE', 576);
    await page.goto(`${app.server.url}/create-transaction`);
    await page.getByLabel('Amount').fill('1,234');
    await page.getByLabel('Description').focus();
    await page.getByText('Read as 1,23').waitFor();
    await screenshotAndCheckWidth(page, 'create-transaction-de-576');
    await expectNoSeriousA11yViolations(page, 'create transaction at 576 px in de-DE');
    await close();
  });
});
