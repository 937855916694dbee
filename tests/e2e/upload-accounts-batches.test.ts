import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshotAndCheckWidth, signedInPage } from './harness';
import { useUploadScreen } from './upload-screen';

// Split from upload.test.ts so the two halves run in parallel workers; the helpers are in upload-screen.ts.
const { app, CHASE, allTransactions, openUpload, choose, batchRows, uploadButton } = useUploadScreen();

describe('Upload: the Accounts widget', () => {
  it('adds, edits and deletes accounts, confirming each with its notice', async () => {
    const { page, close, api, errors } = await openUpload();
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
    await list.getByText('Balance: −$1,234.50').waitFor();
    expect(await list.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^Cardcredit/),
      expect.stringMatching(/^Everydaychecking/),
    ]);

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
    expect((await api.accounts.list.query()).find((a) => a.type === 'credit')).toMatchObject({
      name: 'Credit Card',
      balance: 1000,
    });

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
    await api.transactions.create.mutate({
      postDate: '2024-01-01',
      description: 'x',
      amount: -100,
      account: 'Everyday',
    });
    await page.getByRole('button', { name: 'Delete Everyday' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alert').filter({ hasText: 'Failed to delete account' }).waitFor();
    expect(await api.accounts.list.query()).toHaveLength(1);
    expect(errors).toEqual([]);
    await close();
  });

  it("says 'Failed to fetch accounts' when the list cannot load", async () => {
    const session = await signedInPage(app.browser, app.server);
    await session.page.route(
      (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('accounts.list'),
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '[]' }),
    );
    await session.page.goto(`${app.server.url}/upload`);
    await session.page.getByRole('alert').filter({ hasText: 'Failed to fetch accounts' }).waitFor();
    await session.close();
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
    const res = await fetch(`${app.server.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.user.accessToken}` },
      body: form,
    });
    expect(res.status).toBe(201);
    await session.page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => batchRows(session.page).count()).toBe(1);
    return session;
  }

  it('loads a batch into the shared table, edits it there, and deletes the batch', async () => {
    const { page, close, api, errors } = await importedSession();
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
    await page
      .getByRole('dialog')
      .getByText(
        /^Delete the 0 transactions of “chase-credit-card\.csv”, uploaded .+\? They go to the trash \(History, Trash\), where they can be restored for 30 days\.$/,
      )
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await api.transactions.batches.query()).toHaveLength(1);
    await page.getByRole('button', { name: /^Delete Batch / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Batch' }).click();
    await page.getByText('Batch deleted successfully').waitFor();
    await page.getByText('No transaction batches found.').waitFor();
    expect(await api.transactions.batches.query()).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('works from the keyboard and shows the failures of the batch calls', async () => {
    const { page, close, api } = await importedSession();
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
    await close();
  });

  for (const width of [1366, 390]) {
    it(`names the batch it deletes, whose import message goes with it, and offers no Upload for a file with nothing new (${width} px)`, async () => {
      // Signed in at desktop width (the welcome line it waits for is hidden on a phone), then sized.
      const { page, close, api, errors, user } = await openUpload(1366, [{ name: 'Visa', type: 'credit' }]);
      await page.setViewportSize({ width, height: 844 });
      const choosePreview = async () => {
        await page.getByLabel('CSV file').setInputFiles(CHASE);
        await choose(page, 'Account', 'Visa (credit)');
        await choose(page, 'Transaction Type', 'charge');
        await choose(page, 'Date format', 'MM/DD/YYYY');
      };
      await choosePreview();
      await page.getByText('Ready to import 8 transactions.').waitFor();
      expect(await uploadButton(page).isEnabled()).toBe(true);
      await uploadButton(page).click();
      const message = page.getByRole('status').filter({ hasText: 'Imported 8 transactions' });
      await message.waitFor();
      await expectNoSeriousA11yViolations(page, `upload done at ${width} px`);

      // Delete Batch names what goes: the file, when it came, how many rows.
      const [batch] = await api.transactions.batches.query();
      await page.getByRole('button', { name: /^Delete Batch / }).click();
      const question = page.getByRole('dialog', { name: 'Delete batch' });
      const uploaded = await page.evaluate(
        (iso) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)),
        batch.uploadDate,
      );
      await question
        .getByText(`Delete the 8 transactions of “chase-credit-card.csv”, uploaded ${uploaded}?`, { exact: false })
        .waitFor();
      await expectNoSeriousA11yViolations(page, `delete batch question at ${width} px`);
      await question.getByRole('button', { name: 'Delete Batch' }).click();
      await page.getByText('Batch deleted successfully').waitFor();
      // The import's message described that batch: it goes with it.
      await expect.poll(() => message.count()).toBe(0);
      expect(await api.transactions.batches.query()).toEqual([]);
      await expectNoSeriousA11yViolations(page, `batch deleted at ${width} px`);

      // A file whose every row is stored already: nothing to upload, and the page says why.
      const form = new FormData();
      for (const [key, value] of Object.entries({
        account: 'Visa',
        transactionType: 'charge',
        dateFormat: 'MM/DD/YYYY',
      }))
        form.append(key, value);
      form.append('file', new Blob([readFileSync(CHASE)]), 'chase-credit-card.csv');
      const answer = await fetch(`${app.server.url}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.accessToken}` },
        body: form,
      });
      expect(answer.ok).toBe(true);
      await choosePreview();
      await page.getByText(/^Ready to import 0 transactions/).waitFor();
      expect(await uploadButton(page).isDisabled()).toBe(true);
      const why = page.getByText('Nothing new to upload: every row of this file is stored already.');
      expect(await why.isVisible()).toBe(true);
      expect(await uploadButton(page).getAttribute('aria-describedby')).toBe(await why.getAttribute('id'));
      await expectNoSeriousA11yViolations(page, `nothing new to upload at ${width} px`);
      expect(errors).toEqual([]);
      await close();
    });
  }

  it('names a batch by its file and date, and lays preview rows and batches out as cards below 768 px', async () => {
    const { page, close } = await importedSession(576);
    await page.getByLabel('CSV file').setInputFiles(CHASE);
    await choose(page, 'Account', 'Visa (credit)');
    await choose(page, 'Transaction Type', 'charge');
    await choose(page, 'Date format', 'MM/DD/YYYY');
    await page.getByText('Ready to import 0 transactions (8 duplicates will be skipped).').waitFor();
    // Preview rows: one card each with the whole amount and description on view.
    const cards = page.getByRole('list', { name: 'Rows as they will be stored' }).getByRole('listitem');
    await expect.poll(() => cards.count()).toBe(8);
    await cards.first().getByText('−$24.75').waitFor();
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
        [
          ...document.querySelectorAll(
            '[aria-label="Rows as they will be stored"], [aria-label="Transaction batches"]',
          ),
        ].filter((el) => el.scrollWidth > el.clientWidth + 1).length,
    );
    expect(clipped).toBe(0);
    await screenshotAndCheckWidth(page, 'upload-576');
    await expectNoSeriousA11yViolations(page, 'upload at 576 px');
    await close();
  });

  it('keeps the preview table and the batch table from 768 px up', async () => {
    const { page, close } = await importedSession(800);
    await batchRows(page).first().click();
    await page.getByRole('heading', { name: /^chase-credit-card\.csv — / }).waitFor();
    await screenshotAndCheckWidth(page, 'upload-800');
    await close();
  });
});
