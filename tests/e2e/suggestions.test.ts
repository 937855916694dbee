import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatCents } from '../../src/shared/money';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { expectNoSeriousA11yViolations, signedInPage, trpcApi, useBrowserAndServer, type TrpcApi } from './harness';

/** Learned suggestions in the browser: review a Suggested row, accept a chip, categorise similar rows. */
const app = useBrowserAndServer();

const rowLabel = (tx: TransactionDto) => `${tx.description} ${formatCents(tx.amount)} on ${tx.postDate}`;

async function all(api: TrpcApi): Promise<TransactionDto[]> {
  return api.transactions.list.query({ startDate: '2024-01-01', endDate: '2024-12-31' });
}

async function byDescription(api: TrpcApi, description: string): Promise<TransactionDto> {
  const found = (await all(api)).find((tx) => tx.description === description);
  if (!found) throw new Error(`no row ${description}`);
  return found;
}

async function importCsv(token: string, csv: string): Promise<void> {
  const body = new FormData();
  body.append('file', new Blob([csv]), 'february.csv');
  body.append('account', 'Checking');
  body.append('transactionType', 'auto');
  const res = await fetch(`${app.server.url}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body,
  });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
}

/** Two categorised CORNER BAKERY rows in January, then two uncategorised ones imported in February (a suggestion below the threshold). */
async function seedBakery(api: TrpcApi, token: string): Promise<void> {
  await api.accounts.create.mutate({ name: 'Checking', type: 'checking' });
  for (let i = 0; i < 2; i++) {
    await api.transactions.create.mutate({
      postDate: `2024-01-2${i}`,
      description: `CORNER BAKERY ${i}`,
      amount: -450,
      category: 'Treats',
      account: 'Checking',
    });
  }
  await importCsv(
    token,
    'Date,Description,Amount\n2024-02-04,CORNER BAKERY 12,-4.50\n2024-02-05,CORNER BAKERY 13,-5.00\n',
  );
}

async function searchFebruary(page: Page, source: 'Any' | 'Suggested') {
  if (!page.url().endsWith('/transactions?filters=open')) {
    await page.goto(`${app.server.url}/transactions?filters=open`);
    await page.getByRole('heading', { name: 'Transaction Search', level: 1 }).waitFor();
  }
  await page.getByLabel('Start Date').fill('2024-02-01');
  await page.getByLabel('End Date').fill('2024-02-29');
  await page.getByRole('combobox', { name: 'Category source' }).click();
  await page.getByRole('listbox').getByRole('option', { name: source }).click();
  const answered = page.waitForResponse(
    (res) =>
      decodeURIComponent(res.url()).includes('transactions.list') &&
      decodeURIComponent(res.url()).includes('"startDate":"2024-02-01"'),
  );
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await answered;
}

describe('Learned suggestions', () => {
  it('reviews a Suggested row, accepts a chip, and sets the category on similar rows', async () => {
    const { page, close, user } = await signedInPage(app.browser, app.server);
    try {
      const api = trpcApi(app.server, user.accessToken);
      await api.accounts.create.mutate({ name: 'Checking', type: 'checking' });
      for (let i = 0; i < 12; i++) {
        await api.transactions.create.mutate({
          postDate: `2024-01-${String(i + 1).padStart(2, '0')}`,
          description: `GREEN BASKET #${100 + i}`,
          amount: -2500 - i,
          category: 'Groceries',
          account: 'Checking',
        });
      }
      for (let i = 0; i < 2; i++) {
        await api.transactions.create.mutate({
          postDate: `2024-01-2${i}`,
          description: `CORNER BAKERY ${i}`,
          amount: -450,
          category: 'Treats',
          account: 'Checking',
        });
      }
      await importCsv(
        user.accessToken,
        'Date,Description,Amount\n2024-02-03,GREEN BASKET #555,-31.20\n2024-02-04,CORNER BAKERY 12,-4.50\n2024-02-05,CORNER BAKERY 13,-5.00\n',
      );
      const suggested = await byDescription(api, 'GREEN BASKET #555');
      expect(suggested).toMatchObject({ category: 'Groceries', categorySource: 'suggested' });

      // The Suggested filter lists the row to review; its marker accepts it.
      await searchFebruary(page, 'Suggested');
      const table = page.getByRole('table', { name: 'Transactions' });
      await table.getByRole('checkbox', { name: `Select transaction ${rowLabel(suggested)}` }).waitFor();
      // Polled: the answer can come before the table renders it, and the row was also in the unfiltered list before.
      await expect.poll(() => table.locator('tbody tr[aria-rowindex]').count()).toBe(1);
      await expectNoSeriousA11yViolations(page, 'transactions with a suggested row');
      await page
        .getByRole('button', { name: `Accept suggested category Groceries for ${rowLabel(suggested)}` })
        .click();
      await expect.poll(async () => (await byDescription(api, 'GREEN BASKET #555')).categorySource).toBe('user');

      // Below the threshold: a one-click chip in the category cell.
      await searchFebruary(page, 'Any');
      const bakery = await byDescription(api, 'CORNER BAKERY 12');
      expect(bakery.category).toBeNull();
      const chip = page.getByRole('button', { name: `Use suggested category Treats for ${rowLabel(bakery)}` });
      await chip.click();
      await expect
        .poll(async () => byDescription(api, 'CORNER BAKERY 12'))
        .toMatchObject({ category: 'Treats', categorySource: 'user' });

      // Categorise similar: the other uncategorised CORNER BAKERY row.
      const offer = page.getByRole('button', { name: 'Also set Treats on 1 similar uncategorized transaction' });
      await offer.click();
      await expect
        .poll(async () => byDescription(api, 'CORNER BAKERY 13'))
        .toMatchObject({ category: 'Treats', categorySource: 'user' });
      await page.getByText('Set Treats on 1 similar transaction').waitFor();
      expect(await page.getByRole('button', { name: 'Always (create a rule)' }).count()).toBe(0);
    } finally {
      await close();
    }
    // A journey of three screens with an accessibility check: room for a loaded machine.
  }, 150_000);

  it('turns "Apply confident suggestions" off and on in the account form', async () => {
    const { page, close, user } = await signedInPage(app.browser, app.server);
    try {
      const api = trpcApi(app.server, user.accessToken);
      await api.accounts.create.mutate({ name: 'Everyday', type: 'checking' });
      await page.goto(`${app.server.url}/upload`);
      await page.getByRole('button', { name: 'Edit Everyday' }).click();
      const form = page.getByRole('form', { name: 'Edit account' });
      const setting = form.getByRole('checkbox', { name: 'Apply confident suggestions' });
      expect(await setting.isChecked()).toBe(true);
      await setting.uncheck();
      await form.getByRole('button', { name: 'Save Account' }).click();
      await page.getByText('Account updated successfully').waitFor();
      expect(await api.accounts.list.query()).toMatchObject([{ name: 'Everyday', applySuggestions: false }]);
      await page.getByRole('button', { name: 'Edit Everyday' }).click();
      expect(
        await page
          .getByRole('form', { name: 'Edit account' })
          .getByRole('checkbox', { name: 'Apply confident suggestions' })
          .isChecked(),
      ).toBe(false);
    } finally {
      await close();
    }
  });
  it('"Always (create a rule)" creates a rule through the rules API, and the next import follows it', async () => {
    const { page, close, user } = await signedInPage(app.browser, app.server);
    try {
      const api = trpcApi(app.server, user.accessToken);
      await seedBakery(api, user.accessToken);
      await searchFebruary(page, 'Any');
      const bakery = await byDescription(api, 'CORNER BAKERY 12');
      await page.getByRole('button', { name: `Use suggested category Treats for ${rowLabel(bakery)}` }).click();
      await page.getByRole('button', { name: 'Always (create a rule)' }).click();
      await page.getByText('Rule created: CORNER BAKERY is always Treats').waitFor();
      expect(await api.rules.list.query()).toMatchObject([
        {
          conditions: [{ field: 'description', op: 'contains', value: 'corner bakery' }],
          actions: { category: 'Treats' },
          enabled: true,
        },
      ]);
      await importCsv(user.accessToken, 'Date,Description,Amount\n2024-02-20,Corner Bakery 0042,-3.80\n');
      expect(await byDescription(api, 'Corner Bakery 0042')).toMatchObject({
        category: 'Treats',
        categorySource: 'rule',
      });
    } finally {
      await close();
    }
  }, 150_000);

  it('offers the suggestion chip on phone cards too', async () => {
    const { page, close, user } = await signedInPage(app.browser, app.server, 576);
    try {
      const api = trpcApi(app.server, user.accessToken);
      await seedBakery(api, user.accessToken);
      await searchFebruary(page, 'Any');
      const bakery = await byDescription(api, 'CORNER BAKERY 13');
      const cards = page.getByRole('list', { name: 'Transactions' });
      await cards.getByRole('button', { name: `Use suggested category Treats for ${rowLabel(bakery)}` }).click();
      await expect
        .poll(async () => byDescription(api, 'CORNER BAKERY 13'))
        .toMatchObject({ category: 'Treats', categorySource: 'user' });
      await expectNoSeriousA11yViolations(page, 'transaction cards with a suggestion chip');
    } finally {
      await close();
    }
  }, 150_000);
});
