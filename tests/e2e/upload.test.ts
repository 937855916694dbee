import type { AccountType } from '../../src/shared/schemas/accounts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowserAndServer, trpcApi, expectNoSeriousA11yViolations, screenshotAndCheckWidth, signedInPage, type TrpcApi } from './harness';

const app = useBrowserAndServer();

const BANK_FIXTURES = path.resolve('../shared/fixtures/bank-csv');
const OWN_FIXTURES = path.resolve('tests/fixtures/csv');
/** Chase's export: 8 rows, M/D/YYYY dates, categories, summing to -299.68. */
const CHASE = path.join(BANK_FIXTURES, 'chase-credit-card.csv');

const apiFor = (token: string) => trpcApi(app.server, token);
type Api = TrpcApi;

async function allTransactions(api: Api) {
  return api.transactions.list.query({ startDate: '1900-01-01', endDate: '2100-12-31' });
}

async function openUpload(width = 1400, accounts: { name: string; type: AccountType }[] = []) {
  const session = await signedInPage(
    app.browser,
    app.server,
    width,
    900,
    {},
    {
      path: '/upload',
      before: async (user) => {
        for (const account of accounts) await apiFor(user.accessToken).accounts.create.mutate({ ...account, balance: 0 });
      },
    },
  );
  await session.page.getByRole('heading', { name: 'Upload CSV' }).waitFor();
  return { ...session, api: apiFor(session.user.accessToken) };
}

/** An MUI select by its label (its accessible name also holds the chosen value). */
const selectBox = (page: Page, label: string) => page.getByRole('combobox', { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`) });

/** Picks an option of an MUI select by its label. */
async function choose(page: Page, label: string, option: string) {
  await selectBox(page, label).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}

const uploadForm = (page: Page) => page.getByRole('form', { name: 'Upload CSV' });
const uploadButton = (page: Page) => uploadForm(page).getByRole('button', { name: 'Upload', exact: true });
const previewRows = (page: Page) => page.getByRole('table', { name: 'Rows as they will be stored' }).locator('tbody tr');
const batchRows = (page: Page) =>
  page
    .getByRole('table', { name: 'Transaction batches' })
    .locator('tbody tr')
    .or(page.getByRole('list', { name: 'Transaction batches' }).getByRole('listitem'));

describe('Upload: the CSV import', () => {
  it('previews a real bank export, imports it as a batch, then skips every row as a duplicate', async () => {
    const { page, context, api, errors } = await openUpload(1400, [
      { name: 'Visa', type: 'credit' },
      { name: 'checking main', type: 'checking' },
      { name: 'Amex', type: 'credit' },
    ]);
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(true);
    await page.getByText('Choose a file, an account and a transaction type to see a preview before importing.').waitFor();

    // Accounts are sorted by name and shown as 'name (type)'.
    await selectBox(page, 'Account').click();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['Amex (credit)', 'checking main (checking)', 'Visa (credit)']);
    await page.getByRole('option', { name: 'Visa (credit)' }).click();
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(true);
    await page.getByLabel('CSV file').setInputFiles(CHASE);
    await page.getByText('chase-credit-card.csv', { exact: false }).waitFor();
    await choose(page, 'Transaction Type', 'charge');

    // Chase's export has every day <= 12, so the dry run asks for the date order first; Upload waits for it.
    await page.getByRole('alert').filter({ hasText: 'The date order is ambiguous' }).waitFor();
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(true);
    await choose(page, 'Date format', 'MM/DD/YYYY');
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(false);
    // The dry run: what will be stored, before anything is.
    await page.getByText('Ready to import 8 transactions.').waitFor();
    expect(await page.getByTestId('preview-date-format').textContent()).toBe('MM/DD/YYYY');
    expect(await page.getByTestId('preview-date-column').textContent()).toBe('Transaction Date');
    await page.getByText('Description → Description').waitFor();
    await page.getByText('Category → Category').waitFor();
    await expect.poll(() => previewRows(page).count()).toBe(8);
    const first = await previewRows(page).first().locator('td').allTextContents();
    expect(first).toEqual(['2', '2025-10-09', 'AMAZON MKTPL', '-24.75', 'Shopping', 'New']);
    expect(await allTransactions(api)).toEqual([]);

    // Flip amounts turns every sign in the preview; flipping back restores it.
    await page.getByRole('switch', { name: /Flip amounts/ }).check();
    await expect.poll(async () => (await previewRows(page).first().locator('td').allTextContents())[3]).toBe('24.75');
    await page.getByRole('switch', { name: /Flip amounts/ }).uncheck();
    await expect.poll(async () => (await previewRows(page).first().locator('td').allTextContents())[3]).toBe('-24.75');

    await expectNoSeriousA11yViolations(page, 'upload with preview');
    await screenshotAndCheckWidth(page, 'upload-preview-1400');

    await uploadButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Imported 8 transactions' }).waitFor();
    const stored = await allTransactions(api);
    expect(stored).toHaveLength(8);
    expect(stored.reduce((sum, tx) => sum + tx.amount, 0)).toBe(-29968);
    expect(new Set(stored.map((tx) => tx.type))).toEqual(new Set(['charge']));
    expect(new Set(stored.map((tx) => tx.account))).toEqual(new Set(['Visa']));
    // The form is ready for the next file; the batch is listed.
    await page.getByText('No file chosen (or drop one here)').waitFor();
    await expect.poll(() => batchRows(page).count()).toBe(1);
    await batchRows(page).first().getByText('8 txns').waitFor();

    // The same file again: the preview flags all 8 as duplicates and the import adds nothing.
    await page.getByLabel('CSV file').setInputFiles(CHASE);
    await choose(page, 'Date format', 'MM/DD/YYYY');
    await page.getByText('Ready to import 0 transactions (8 duplicates will be skipped).').waitFor();
    expect(await previewRows(page).getByText('Duplicate').count()).toBe(8);
    await uploadButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Imported 0 transactions (8 duplicates skipped)' }).waitFor();
    expect(await allTransactions(api)).toHaveLength(8);
    expect(await api.transactions.batches.query()).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('never shows an older preview answer over the newer choices', async () => {
    const { page, context, errors } = await openUpload(1400, [{ name: 'Visa', type: 'credit' }]);
    await choose(page, 'Account', 'Visa (credit)');
    await page.getByLabel('CSV file').setInputFiles(CHASE);
    await choose(page, 'Transaction Type', 'charge');
    await choose(page, 'Date format', 'MM/DD/YYYY');
    await page.getByText('Ready to import 8 transactions.').waitFor();
    const amount = async () => (await previewRows(page).first().locator('td').allTextContents())[3];
    await expect.poll(amount).toBe('-24.75');

    // The dry run for "flipped" is held; the one for "not flipped again" answers first.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let requests = 0;
    await page.route('**/api/upload', async (route) => {
      requests += 1;
      if (requests === 1) await held;
      await route.continue();
    });
    const flip = page.getByRole('switch', { name: /Flip amounts/ });
    await flip.check();
    await expect.poll(() => requests).toBe(1);
    const olderAnswer = page.waitForResponse(
      (response) => response.url().endsWith('/api/upload') && (response.request().postData() ?? '').includes('name="flipAmounts"'),
    );
    await flip.uncheck();
    await expect.poll(() => requests).toBe(2);
    await page.getByText('Ready to import 8 transactions.').waitFor();
    await expect.poll(amount).toBe('-24.75');

    // The older answer (flipped signs) arrives last: the preview keeps the newer one.
    release();
    await olderAnswer;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await amount()).toBe('-24.75');
    expect(await flip.isChecked()).toBe(false);
    await page.unroute('**/api/upload');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks for the date order when every date fits day-first and month-first', async () => {
    const { page, context, api } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
    await page.getByLabel('CSV file').setInputFiles(path.join(OWN_FIXTURES, 'ambiguous.csv'));
    await choose(page, 'Account', 'Checking (checking)');
    await choose(page, 'Transaction Type', 'debit');
    await page.getByRole('alert').filter({ hasText: 'The date order is ambiguous' }).waitFor();
    await page.getByText('Pick the date format above.', { exact: false }).waitFor();
    // Upload waits for a date order: one alert says why.
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(await allTransactions(api)).toEqual([]);

    await choose(page, 'Date format', 'DD/MM/YYYY');
    await page.getByText('Ready to import 2 transactions.').waitFor();
    expect(await previewRows(page).first().locator('td').nth(1).textContent()).toBe('2024-02-01');
    await uploadButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Imported 2 transactions' }).waitFor();
    expect((await allTransactions(api)).map((tx) => tx.postDate).sort()).toEqual(['2024-02-01', '2024-04-03']);
    await context.close();
  });

  it.each([
    [
      'a PNG picture',
      'picture.png',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
      'binary',
      '16 bytes',
    ],
    ['an empty file', 'empty.csv', Buffer.alloc(0), 'The file is empty.', '0 bytes'],
    ['a header-only CSV', 'header.csv', Buffer.from('Date,Description,Amount\n'), 'No transactions were found', '24 bytes'],
  ])('keeps Upload disabled while the preview refuses %s, with one alert', async (_label, name, buffer, text, size) => {
    const { page, context, api } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
    await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
    await page.getByText(`${name} (${size})`).waitFor();
    await choose(page, 'Account', 'Checking (checking)');
    await page.getByRole('alert').filter({ hasText: text }).waitFor();
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(await allTransactions(api)).toEqual([]);
    await context.close();
  });

  it("shows 'Failed to upload CSV' when the server answers without a message", async () => {
    const { page, context, api } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
    await page.getByLabel('CSV file').setInputFiles(path.join(OWN_FIXTURES, 'us-basic.csv'));
    await choose(page, 'Account', 'Checking (checking)');
    await page.getByText(/^Ready to import \d+ transactions\.$/).waitFor();
    await page.route('**/api/upload', (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'boom' }));
    await uploadButton(page).click();
    await page.getByRole('alert').filter({ hasText: 'Failed to upload CSV' }).waitFor();
    expect(await allTransactions(api)).toEqual([]);
    await context.close();
  });

  it('maps the columns of a headerless file, saves the mapping for the account, and uses it next time', async () => {
    const { page, context, api } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
    const headerless = Buffer.from('05.01.2024;Bakery;Bread;-3,20\n06.01.2024;Employer;Salary;2500,00\n');
    await page.getByLabel('CSV file').setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: headerless });
    await choose(page, 'Account', 'Checking (checking)');
    await page.getByRole('heading', { name: 'Choose what each column holds' }).waitFor();
    await page.getByText('This file has no header row').waitFor();
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(true);
    // The picker starts from a guess (date, amount, one text column); add the purpose column.
    expect(await selectBox(page, 'Role of column 1').textContent()).toBe('Date');
    expect(await selectBox(page, 'Role of column 4').textContent()).toBe('Amount');
    await choose(page, 'Role of column 2', 'Description part');
    await choose(page, 'Role of column 3', 'Description part');
    await page.getByRole('button', { name: 'Use this mapping' }).click();
    await page.getByText('Ready to import 2 transactions.').waitFor();
    expect((await previewRows(page).first().locator('td').allTextContents()).slice(1, 4)).toEqual(['2024-01-05', 'Bakery Bread', '-3.20']);
    await expectNoSeriousA11yViolations(page, 'upload with a mapping');
    await uploadButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Imported 2 transactions' }).waitFor();
    expect((await allTransactions(api)).map((t) => [t.description, t.amount, t.type]).sort()).toEqual([
      ['Bakery Bread', -320, 'debit'],
      ['Employer Salary', 250000, 'credit'],
    ]);

    // Next month's file: the saved mapping reads it, and it can be changed.
    await page.getByLabel('CSV file').setInputFiles({ name: 'next.csv', mimeType: 'text/csv', buffer: Buffer.from('05.02.2024;Bakery;Cake;-4,10\n') });
    await page.getByText('Using the saved mapping for this account.').waitFor();
    await page.getByText('Ready to import 1 transaction.').waitFor();
    await page.getByRole('button', { name: 'Change mapping' }).click();
    await choose(page, 'Role of column 3', 'Ignore');
    await page.getByRole('button', { name: 'Use this mapping' }).click();
    await expect.poll(async () => (await previewRows(page).first().locator('td').allTextContents())[2]).toBe('Bakery');
    await uploadButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Imported 1 transaction' }).waitFor();
    const accounts = await api.accounts.list.query();
    expect(await api.imports.profile.query({ accountId: accounts[0].id })).toMatchObject({ mapping: { header: false, date: 0, description: [1], amount: 3 } });
    await context.close();
  });

  it('lets the mapping picker set the date format of the date column, and saves it with the mapping', async () => {
    const { page, context, api } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
    // Every date fits day-first and month-first: the person says which.
    const headerless = Buffer.from('01/02/2024;Bakery;-3,20\n03/04/2024;Employer;2500,00\n');
    await page.getByLabel('CSV file').setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: headerless });
    await choose(page, 'Account', 'Checking (checking)');
    await page.getByRole('heading', { name: 'Choose what each column holds' }).waitFor();
    expect(await selectBox(page, 'Role of column 1').textContent()).toBe('Date');
    await selectBox(page, 'Date format of the date column').click();
    // Only the formats that read every date of the column are offered.
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual(['Detect from the file', 'MM/DD/YYYY', 'DD/MM/YYYY']);
    await page.getByRole('listbox').getByRole('option', { name: 'DD/MM/YYYY', exact: true }).click();
    await page.getByRole('button', { name: 'Use this mapping' }).click();
    await page.getByText('Ready to import 2 transactions.').waitFor();
    expect((await previewRows(page).first().locator('td').allTextContents()).slice(1, 4)).toEqual(['2024-02-01', 'Bakery', '-3.20']);
    await uploadButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Imported 2 transactions' }).waitFor();
    expect((await allTransactions(api)).map((t) => t.postDate).sort()).toEqual(['2024-02-01', '2024-04-03']);
    const accounts = await api.accounts.list.query();
    expect(await api.imports.profile.query({ accountId: accounts[0].id })).toMatchObject({ mapping: { date: 0, amount: 2, dateFormat: 'DD/MM/YYYY' } });

    // Next month's file, as ambiguous: the saved mapping reads it day-first without asking.
    await page.getByLabel('CSV file').setInputFiles({ name: 'next.csv', mimeType: 'text/csv', buffer: Buffer.from('05/06/2024;Bakery;-4,10\n') });
    await page.getByText('Using the saved mapping for this account.').waitFor();
    await page.getByText('Ready to import 1 transaction.').waitFor();
    expect((await previewRows(page).first().locator('td').allTextContents())[1]).toBe('2024-06-05');
    // Changing the mapping starts from the saved date format.
    await page.getByRole('button', { name: 'Change mapping' }).click();
    expect(await selectBox(page, 'Date format of the date column').textContent()).toBe('DD/MM/YYYY');

    // A file of as many columns in another layout is not read with the saved mapping: the screen
    // says which column does not fit and asks again; a file with its own header is read by it.
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'other.csv', mimeType: 'text/csv', buffer: Buffer.from('Bakery;05/07/2024;-4,10\nCafe;06/07/2024;-2,00\n') });
    await page
      .getByRole('alert')
      .filter({ hasText: "The saved mapping for this account does not fit this file (column 1 holds 'Bakery', not a date in DD/MM/YYYY)" })
      .waitFor();
    await page.getByRole('heading', { name: 'Choose what each column holds' }).waitFor();
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(true);
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'headed.csv', mimeType: 'text/csv', buffer: Buffer.from('Date,Amount,Description\n2024-08-01,-5.00,Shop\n') });
    await page.getByText('Ready to import 1 transaction.').waitFor();
    await page.getByText('The saved mapping for this account was not used', { exact: false }).waitFor();
    expect(await page.getByText('Using the saved mapping for this account.').count()).toBe(0);
    expect((await previewRows(page).first().locator('td').allTextContents()).slice(1, 4)).toEqual(['2024-08-01', 'Shop', '-5.00']);
    await context.close();
  });

  it('shows progress while a large file is sent', async () => {
    const { page, context, api } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < 40_000; i++)
      lines.push(`2024-${String((i % 12) + 1).padStart(2, '0')}-15,Purchase number ${i} at a shop,-${(i % 997) + 1}.${String(i % 100).padStart(2, '0')}`);
    const big = Buffer.from(lines.join('\n'));
    await page.getByLabel('CSV file').setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: big });
    await choose(page, 'Account', 'Checking (checking)');
    await choose(page, 'Transaction Type', 'debit');
    await page.getByText('Ready to import 40000 transactions.').waitFor({ timeout: 20_000 });
    await page.getByText('Showing the first 100 of 40000 rows.').waitFor();
    // Slow the upload down so its progress can be seen.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 512 * 1024 });
    await uploadButton(page).click();
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    await page.getByText(/Sending the file: \d+%/).waitFor();
    await page.getByRole('status').filter({ hasText: 'Imported 40000 transactions' }).waitFor({ timeout: 45_000 });
    expect(await api.transactions.batches.query()).toMatchObject([{ transactionCount: 40000 }]);
    await context.close();
  });
});

describe('Upload: the Accounts widget', () => {
  it('adds, edits and deletes accounts with the spec messages', async () => {
    const { page, context, api, errors } = await openUpload();
    await page.getByText('No accounts found. Create one to get started.').waitFor();
    await page.getByRole('button', { name: 'Add Account' }).click();
    const form = page.getByRole('form', { name: 'Add account' });
    await form.getByRole('button', { name: 'Create Account' }).click();
    await form.getByText('Name is required').waitFor();
    await form.getByText('Type is required').waitFor();
    expect(await api.accounts.list.query()).toEqual([]);
    await form.getByLabel('Name').fill('Everyday');
    await choose(page, 'Type', 'checking');
    await form.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Account created successfully').waitFor();
    const list = page.getByRole('list', { name: 'Accounts' });
    await list.getByText('Balance: $0.00').waitFor();
    expect(await api.accounts.list.query()).toMatchObject([{ name: 'Everyday', type: 'checking', balance: 0 }]);

    // Add/Cancel toggles the form.
    await page.getByRole('button', { name: 'Add Account' }).click();
    await page.getByRole('form', { name: 'Add account' }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('form', { name: 'Add account' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Add Account' }).click();
    await page.getByRole('form', { name: 'Add account' }).getByLabel('Name').fill('Card');
    await choose(page, 'Type', 'credit');
    await page.getByRole('form', { name: 'Add account' }).getByLabel('Balance').fill('-1234.5');
    await page.getByRole('form', { name: 'Add account' }).getByLabel('Balance').press('Enter');
    await list.getByText('Balance: $-1,234.50').waitFor();
    expect(await list.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^Cardcredit/), expect.stringMatching(/^Everydaychecking/)]);

    // A duplicate name is refused with the server's reason.
    await page.getByRole('button', { name: 'Edit Card' }).click();
    const edit = page.getByRole('form', { name: 'Edit account' });
    expect(await edit.getByLabel('Balance').inputValue()).toBe('-1,234.50');
    await edit.getByLabel('Name').fill('everyday');
    await edit.getByRole('button', { name: 'Save Account' }).click();
    await edit.getByRole('alert').filter({ hasText: 'Failed to update account' }).waitFor();
    await edit.getByLabel('Name').fill('Credit Card');
    await edit.getByLabel('Balance').fill('10');
    await edit.getByRole('button', { name: 'Save Account' }).click();
    await page.getByText('Account updated successfully').waitFor();
    await list.getByText('Balance: $10.00').waitFor();
    expect((await api.accounts.list.query()).find((a) => a.type === 'credit')).toMatchObject({ name: 'Credit Card', balance: 1000 });

    // Delete asks first; Cancel keeps the account.
    await page.getByRole('button', { name: 'Delete Credit Card' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Are you sure you want to delete this account?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await api.accounts.list.query()).toHaveLength(2);
    await page.getByRole('button', { name: 'Delete Credit Card' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Account deleted successfully').waitFor();
    expect((await api.accounts.list.query()).map((a) => a.name)).toEqual(['Everyday']);

    // An account that still holds transactions is kept, and the reason shown.
    await api.transactions.create.mutate({ postDate: '2024-01-01', description: 'x', amount: -100, account: 'Everyday' });
    await page.getByRole('button', { name: 'Delete Everyday' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alert').filter({ hasText: 'Failed to delete account' }).waitFor();
    expect(await api.accounts.list.query()).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says 'Failed to fetch accounts' when the list cannot load", async () => {
    const session = await signedInPage(app.browser, app.server);
    await session.page.route(
      (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('accounts.list'),
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '[]' }),
    );
    await session.page.goto(`${app.server.url}/upload`);
    await session.page.getByRole('alert').filter({ hasText: 'Failed to fetch accounts' }).waitFor();
    await session.context.close();
  });
});

describe('Upload: the batch manager', () => {
  async function importedSession(width = 1400) {
    const session = await openUpload(width, [{ name: 'Visa', type: 'credit' }]);
    const form = new FormData();
    form.append('account', 'Visa');
    form.append('transactionType', 'charge');
    form.append('dateFormat', 'MM/DD/YYYY');
    form.append('file', new Blob([readFileSync(CHASE)]), 'chase-credit-card.csv');
    const res = await fetch(`${app.server.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${session.user.accessToken}` }, body: form });
    expect(res.status).toBe(201);
    await session.page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => batchRows(session.page).count()).toBe(1);
    return session;
  }

  it('loads a batch into the shared table, edits it there, and deletes the batch', async () => {
    const { page, context, api, errors } = await importedSession();
    await batchRows(page).first().getByText('8 txns').waitFor();
    await batchRows(page).first().click();
    const table = page.getByRole('table', { name: 'Transactions' });
    await expect.poll(() => table.getByRole('checkbox', { name: /^Select transaction / }).count()).toBe(8);
    await table.getByText('TACOS ENSENADA').waitFor();

    // Delete the batch's transactions one by one from the table: the empty text appears.
    await table.getByRole('checkbox', { name: 'Select all transactions' }).check();
    await page.getByRole('button', { name: 'Delete Selected' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Delete/ })
      .click();
    await page.getByText('No transactions found in this batch.').waitFor();
    expect(await allTransactions(api)).toEqual([]);
    await page.getByRole('button', { name: 'Clear Selection' }).click();
    await expect.poll(() => page.getByText('No transactions found in this batch.').count()).toBe(0);

    // Delete Batch asks first.
    await page.getByRole('button', { name: /^Delete Batch / }).click();
    await page.getByRole('dialog').getByText('Are you sure you want to delete all transactions in this batch? This action cannot be undone.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await api.transactions.batches.query()).toHaveLength(1);
    await page.getByRole('button', { name: /^Delete Batch / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Batch' }).click();
    await page.getByText('Batch deleted successfully').waitFor();
    await page.getByText('No transaction batches found.').waitFor();
    expect(await api.transactions.batches.query()).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works from the keyboard and shows the failures of the batch calls', async () => {
    const { page, context, api } = await importedSession();
    // Tab to the batch row, Enter loads it.
    await batchRows(page).first().focus();
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: 'Transactions' }).getByText('AMAZON MKTPL').waitFor();
    await expectNoSeriousA11yViolations(page, 'upload with a batch open');

    await page.route(
      (url) => url.pathname.includes('transactions.batchTransactions'),
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '[]' }),
    );
    await batchRows(page).first().click();
    await page.getByRole('alert').filter({ hasText: 'Failed to fetch batch transactions' }).waitFor();

    await page.route(
      (url) => url.pathname.includes('transactions.deleteBatch'),
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '[]' }),
    );
    await page.getByRole('button', { name: /^Delete Batch / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Batch' }).click();
    await page.getByText('Failed to delete batch').waitFor();
    expect(await api.transactions.batches.query()).toHaveLength(1);

    await page.route(
      (url) => url.pathname.includes('transactions.batches'),
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '[]' }),
    );
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'Failed to fetch batches' }).waitFor();
    await context.close();
  });

  it('names a batch by its file and date, and lays preview rows and batches out as cards below 768 px', async () => {
    const { page, context } = await importedSession(576);
    await page.getByLabel('CSV file').setInputFiles(CHASE);
    await choose(page, 'Account', 'Visa (credit)');
    await choose(page, 'Transaction Type', 'charge');
    await choose(page, 'Date format', 'MM/DD/YYYY');
    await page.getByText('Ready to import 0 transactions (8 duplicates will be skipped).').waitFor();
    // Preview rows: one card each with the whole amount and description on view.
    const cards = page.getByRole('list', { name: 'Rows as they will be stored' }).getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(8);
    await cards.first().getByText('-24.75').waitFor();
    await cards.first().getByText('AMAZON MKTPL').waitFor();
    const batches = page.getByRole('list', { name: 'Transaction batches' }).getByRole('listitem');
    await expect.poll(() => batches.count()).toBe(1);
    await batches.first().getByText('8 txns', { exact: false }).waitFor();
    await batches.first().click();
    await page.getByRole('heading', { name: /^chase-credit-card\.csv — / }).waitFor();
    // Below 768 px the shared transaction table shows cards.
    await page.getByRole('list', { name: 'Transactions' }).getByText('AMAZON MKTPL').waitFor();
    expect(await page.getByRole('heading', { name: /[0-9a-f]{8}-[0-9a-f]{4}-/ }).count()).toBe(0);
    // Nothing inside the preview or the batches is wider than its box.
    const clipped = await page.evaluate(
      () =>
        [...document.querySelectorAll('[aria-label="Rows as they will be stored"], [aria-label="Transaction batches"]')].filter(
          (el) => el.scrollWidth > el.clientWidth + 1,
        ).length,
    );
    expect(clipped).toBe(0);
    await screenshotAndCheckWidth(page, 'upload-576');
    await expectNoSeriousA11yViolations(page, 'upload at 576 px');
    await context.close();
  });

  it('keeps the preview table and the batch table from 768 px up', async () => {
    const { page, context } = await importedSession(800);
    await batchRows(page).first().click();
    await page.getByRole('heading', { name: /^chase-credit-card\.csv — / }).waitFor();
    await screenshotAndCheckWidth(page, 'upload-800');
    await context.close();
  });
});
