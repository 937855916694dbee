import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshotAndCheckWidth } from './harness';
import { useUploadScreen } from './upload-screen';

const { OWN_FIXTURES, CHASE, allTransactions, openUpload, selectBox, choose, uploadButton, previewRows, batchRows } =
  useUploadScreen();

describe('Upload: the CSV import', () => {
  it('previews a real bank export, imports it as a batch, then skips every row as a duplicate', async () => {
    const { page, close, api, errors } = await openUpload(1400, [
      { name: 'Visa', type: 'credit' },
      { name: 'checking main', type: 'checking' },
      { name: 'Amex', type: 'credit' },
    ]);
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(true);
    await page
      .getByText('Choose a file, an account and a transaction type to see a preview before importing.')
      .waitFor();

    // Accounts are sorted by name and shown as 'name (type)'.
    await selectBox(page, 'Account').click();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual([
      'Amex (credit)',
      'checking main (checking)',
      'Visa (credit)',
    ]);
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
    expect(first).toEqual(['2', '2025-10-09', 'AMAZON MKTPL', '−$24.75', 'Shopping', 'New']);
    expect(await allTransactions(api)).toEqual([]);

    // Flip amounts turns every sign in the preview; flipping back restores it.
    await page.getByRole('switch', { name: /Flip amounts/ }).check();
    await expect.poll(async () => (await previewRows(page).first().locator('td').allTextContents())[3]).toBe('$24.75');
    await page.getByRole('switch', { name: /Flip amounts/ }).uncheck();
    await expect.poll(async () => (await previewRows(page).first().locator('td').allTextContents())[3]).toBe('−$24.75');

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

    // The same file again: the preview flags all 8 as duplicates and offers nothing to import.
    await page.getByLabel('CSV file').setInputFiles(CHASE);
    await choose(page, 'Date format', 'MM/DD/YYYY');
    await page.getByText('Ready to import 0 transactions (8 duplicates will be skipped).').waitFor();
    expect(await previewRows(page).getByText('Duplicate').count()).toBe(8);
    // Nothing new to import: Upload stays disabled.
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(true);
    expect(await allTransactions(api)).toHaveLength(8);
    expect(await api.transactions.batches.query()).toHaveLength(1);
    expect(errors).toEqual([]);
    await close();
  });

  it('never shows an older preview answer over the newer choices', async () => {
    const { page, close, errors } = await openUpload(1400, [{ name: 'Visa', type: 'credit' }]);
    await choose(page, 'Account', 'Visa (credit)');
    await page.getByLabel('CSV file').setInputFiles(CHASE);
    await choose(page, 'Transaction Type', 'charge');
    await choose(page, 'Date format', 'MM/DD/YYYY');
    await page.getByText('Ready to import 8 transactions.').waitFor();
    const amount = async () => (await previewRows(page).first().locator('td').allTextContents())[3];
    await expect.poll(amount).toBe('−$24.75');

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
      (response) =>
        response.url().endsWith('/api/upload') && (response.request().postData() ?? '').includes('name="flipAmounts"'),
    );
    await flip.uncheck();
    await expect.poll(() => requests).toBe(2);
    await page.getByText('Ready to import 8 transactions.').waitFor();
    await expect.poll(amount).toBe('−$24.75');

    // The older answer (flipped signs) arrives last: the preview keeps the newer one.
    release();
    await olderAnswer;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await amount()).toBe('−$24.75');
    expect(await flip.isChecked()).toBe(false);
    await page.unroute('**/api/upload');
    expect(errors).toEqual([]);
    await close();
  });

  it('asks for the date order when every date fits day-first and month-first', async () => {
    const { page, close, api } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
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
    await close();
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
    [
      'a header-only CSV',
      'header.csv',
      Buffer.from('Date,Description,Amount\n'),
      'No transactions were found',
      '24 bytes',
    ],
  ])('keeps Upload disabled while the preview refuses %s, with one alert', async (_label, name, buffer, text, size) => {
    const { page, close, api } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
    await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
    await page.getByText(`${name} (${size})`).waitFor();
    await choose(page, 'Account', 'Checking (checking)');
    await page.getByRole('alert').filter({ hasText: text }).waitFor();
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(await allTransactions(api)).toEqual([]);
    await close();
  });

  it("shows 'Failed to upload CSV' when the server answers without a message", async () => {
    const { page, close, api } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
    await page.getByLabel('CSV file').setInputFiles(path.join(OWN_FIXTURES, 'us-basic.csv'));
    await choose(page, 'Account', 'Checking (checking)');
    await page.getByText(/^Ready to import \d+ transactions\.$/).waitFor();
    await page.route('**/api/upload', (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'boom' }),
    );
    await uploadButton(page).click();
    await page.getByRole('alert').filter({ hasText: 'Failed to upload CSV' }).waitFor();
    expect(await allTransactions(api)).toEqual([]);
    await close();
  });

  it('maps the columns of a headerless file, saves the mapping for the account, and uses it next time', async () => {
    const { page, close, api, rest } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
    // Two signed number columns: the content does not tell which is the amount, so a person is asked.
    const headerless = Buffer.from('05.01.2024;Bakery;Bread;-3,20;-1,00\n06.01.2024;Employer;Salary;2500,00;5,00\n');
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
    expect((await previewRows(page).first().locator('td').allTextContents()).slice(1, 4)).toEqual([
      '2024-01-05',
      'Bakery Bread',
      '−$3.20',
    ]);
    await expectNoSeriousA11yViolations(page, 'upload with a mapping');
    await uploadButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Imported 2 transactions' }).waitFor();
    expect((await allTransactions(api)).map((t) => [t.description, t.amount, t.type]).sort()).toEqual([
      ['Bakery Bread', -320, 'debit'],
      ['Employer Salary', 250000, 'credit'],
    ]);

    // Next month's file: the saved mapping reads it, and it can be changed.
    await page.getByLabel('CSV file').setInputFiles({
      name: 'next.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('05.02.2024;Bakery;Cake;-4,10;-1,00\n'),
    });
    await page.getByText('Using the saved mapping for this account.').waitFor();
    await page.getByText('Ready to import 1 transaction.').waitFor();
    await page.getByRole('button', { name: 'Change mapping' }).click();
    await choose(page, 'Role of column 3', 'Ignore');
    await page.getByRole('button', { name: 'Use this mapping' }).click();
    await expect.poll(async () => (await previewRows(page).first().locator('td').allTextContents())[2]).toBe('Bakery');
    await uploadButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Imported 1 transaction' }).waitFor();
    const accounts = await api.accounts.list.query();
    expect(await rest.importProfile(accounts[0].id)).toMatchObject({
      mapping: { header: false, date: 0, description: [1], amount: 3 },
    });
    await close();
  });

  it('lets the mapping picker set the date format of the date column, and saves it with the mapping', async () => {
    const { page, close, api, rest } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
    // Every date fits day-first and month-first: the person says which.
    const headerless = Buffer.from('01/02/2024;Bakery;-3,20;-1,00\n03/04/2024;Employer;2500,00;5,00\n');
    await page.getByLabel('CSV file').setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: headerless });
    await choose(page, 'Account', 'Checking (checking)');
    await page.getByRole('heading', { name: 'Choose what each column holds' }).waitFor();
    expect(await selectBox(page, 'Role of column 1').textContent()).toBe('Date');
    await selectBox(page, 'Date format of the date column').click();
    // Only the formats that read every date of the column are offered.
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual([
      'Detect from the file',
      'MM/DD/YYYY',
      'DD/MM/YYYY',
    ]);
    await page.getByRole('listbox').getByRole('option', { name: 'DD/MM/YYYY', exact: true }).click();
    await page.getByRole('button', { name: 'Use this mapping' }).click();
    await page.getByText('Ready to import 2 transactions.').waitFor();
    expect((await previewRows(page).first().locator('td').allTextContents()).slice(1, 4)).toEqual([
      '2024-02-01',
      'Bakery',
      '−$3.20',
    ]);
    await uploadButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Imported 2 transactions' }).waitFor();
    expect((await allTransactions(api)).map((t) => t.postDate).sort()).toEqual(['2024-02-01', '2024-04-03']);
    const accounts = await api.accounts.list.query();
    expect(await rest.importProfile(accounts[0].id)).toMatchObject({
      mapping: { date: 0, amount: 2, dateFormat: 'DD/MM/YYYY' },
    });

    // Next month's file, as ambiguous: the saved mapping reads it day-first without asking.
    await page.getByLabel('CSV file').setInputFiles({
      name: 'next.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('05/06/2024;Bakery;-4,10;-1,00\n'),
    });
    await page.getByText('Using the saved mapping for this account.').waitFor();
    await page.getByText('Ready to import 1 transaction.').waitFor();
    expect((await previewRows(page).first().locator('td').allTextContents())[1]).toBe('2024-06-05');
    // Changing the mapping starts from the saved date format.
    await page.getByRole('button', { name: 'Change mapping' }).click();
    expect(await selectBox(page, 'Date format of the date column').textContent()).toBe('DD/MM/YYYY');

    // A file of as many columns in another layout is not read with the saved mapping: the screen
    // says which column does not fit and asks again; a file with its own header is read by it.
    await page.getByLabel('CSV file').setInputFiles({
      name: 'other.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Bakery;05/07/2024;-4,10;-1,00\nCafe;06/07/2024;-2,00;1,00\n'),
    });
    await page
      .getByRole('alert')
      .filter({
        hasText:
          "The saved mapping for this account does not fit this file (column 1 holds 'Bakery', not a date in DD/MM/YYYY)",
      })
      .waitFor();
    await page.getByRole('heading', { name: 'Choose what each column holds' }).waitFor();
    await expect.poll(() => uploadButton(page).isDisabled()).toBe(true);
    await page.getByLabel('CSV file').setInputFiles({
      name: 'headed.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Date,Amount,Description\n2024-08-01,-5.00,Shop\n'),
    });
    await page.getByText('Ready to import 1 transaction.').waitFor();
    await page.getByText('The saved mapping for this account was not used', { exact: false }).waitFor();
    expect(await page.getByText('Using the saved mapping for this account.').count()).toBe(0);
    expect((await previewRows(page).first().locator('td').allTextContents()).slice(1, 4)).toEqual([
      '2024-08-01',
      'Shop',
      '−$5.00',
    ]);
    await close();
  });

  it('shows progress while a large file is sent', async () => {
    const { page, context, close, api } = await openUpload(1400, [{ name: 'Checking', type: 'checking' }]);
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < 40_000; i++)
      lines.push(
        `2024-${String((i % 12) + 1).padStart(2, '0')}-15,Purchase number ${i} at a shop,-${(i % 997) + 1}.${String(i % 100).padStart(2, '0')}`,
      );
    const big = Buffer.from(lines.join('\n'));
    await page.getByLabel('CSV file').setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: big });
    await choose(page, 'Account', 'Checking (checking)');
    await choose(page, 'Transaction Type', 'debit');
    await page.getByText('Ready to import 40000 transactions.').waitFor({ timeout: 20_000 });
    await page.getByText('Showing the first 100 of 40000 rows.').waitFor();
    // Slow the upload down so its progress can be seen.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 512 * 1024,
    });
    await uploadButton(page).click();
    await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    await page.getByText(/Sending the file: \d+%/).waitFor();
    await page.getByRole('status').filter({ hasText: 'Imported 40000 transactions' }).waitFor({ timeout: 45_000 });
    expect(await api.transactions.batches.query()).toMatchObject([{ transactionCount: 40000 }]);
    // The page is reused by the next test: lift the throttling.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
    await close();
  });
});
