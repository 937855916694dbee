import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshotAndCheckWidth } from './harness';
import { useTransactionsScreen } from './transactions-screen';

// Split from transactions.test.ts so the two halves run in parallel workers; the helpers are in transactions-screen.ts.
const { app, seededSession, allTransactions, pick, banner, table, checkbox, search, bannerText, descriptions } =
  useTransactionsScreen();

describe('Splits', () => {
  it('splits with auto-fill after refusing bad splits, then refuses to split it again', async () => {
    const { page, close, api, rows } = await seededSession();
    await search(page);
    const grocery = rows['Grocery Store']; // -82.35
    await checkbox(page, grocery).check();
    await page.getByRole('button', { name: 'Split Transaction' }).click();
    const dialog = page.getByRole('dialog', { name: 'Split Transaction' });
    const split = (n: number) => dialog.getByRole('group', { name: `Split ${n}` });
    expect(await dialog.getByRole('group').count()).toBe(2);
    expect(await dialog.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    const amount = split(1).getByLabel('Amount');
    // A text field read by the shared amount parser, with the decimal keyboard on phones.
    expect(await amount.getAttribute('inputmode')).toBe('decimal');
    const save = dialog.getByRole('button', { name: 'Save Split' });
    const remaining = dialog.getByRole('status');
    expect(await remaining.textContent()).toBe('Remaining: $82.35 of $82.35');
    expect(await save.isDisabled()).toBe(true);

    // One counted row only: refused by the shared validator.
    await amount.fill('82.35');
    await split(1).getByLabel('Category').fill('Groceries');
    expect(await remaining.textContent()).toBe('Remaining: $0.00 of $82.35');
    await save.click();
    await dialog.getByText('At least 2 splits are required').waitFor();

    // A cent short: Save stays disabled (the server would refuse it); one click puts it into the last part.
    await amount.fill('50');
    await split(2).getByLabel('Amount').fill('32.34');
    await split(2).getByLabel('Category').fill('Household');
    expect(await remaining.textContent()).toBe('Remaining: $0.01 of $82.35');
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Add the remaining 0.01 to the last part' }).click();
    expect(await split(2).getByLabel('Amount').inputValue()).toBe('32.35');
    expect(await remaining.textContent()).toBe('Remaining: $0.00 of $82.35');
    expect(await save.isEnabled()).toBe(true);
    await split(2).getByLabel('Amount').fill('30');
    expect(await save.isDisabled()).toBe(true);

    // A third row, Remove, then Auto-fill remaining into the first empty amount row.
    await dialog.getByRole('button', { name: 'Add Split' }).click();
    expect(await dialog.getByRole('button', { name: /^Remove split/ }).count()).toBe(3);
    await split(3).getByLabel('Category').fill('Snacks');
    await split(3).getByLabel('Description').fill('Chocolate');
    await split(3).getByLabel('Split Note').fill('treat');
    await dialog.getByRole('button', { name: 'Auto-fill remaining' }).click();
    expect(await split(3).getByLabel('Amount').inputValue()).toBe('2.35');
    expect(await remaining.textContent()).toBe('Remaining: $0.00 of $82.35');
    await expectNoSeriousA11yViolations(page, 'split dialog');
    await screenshotAndCheckWidth(page, 'split-dialog-1400');
    await save.click();
    await dialog.waitFor({ state: 'detached' });

    const details = await api.transactions.splits.query({ id: grocery.id });
    expect(details.parentTransaction.isSplit).toBe(true);
    expect(details.childTransactions.map((c) => [c.amount, c.category, c.description, c.splitNote])).toEqual([
      [-5000, 'Groceries', 'Grocery Store', null],
      [-3000, 'Household', 'Grocery Store', null],
      [-235, 'Snacks', 'Chocolate', 'treat'],
    ]);
    // The owner refetched: the parts appear, and the banner's total counts parts, not the parent.
    await expect.poll(() => descriptions(page)).toContain('Chocolate');
    // A split counts once, with its parts named; the total counts the parts, not the original.
    expect(await bannerText(page)).toBe(
      'Found 5 transactions (1 split into 3 parts)Net: +$2,340.16(split parts counted, never their originals)',
    );

    await page.getByRole('button', { name: 'Clear Selection' }).click();
    await checkbox(page, grocery).check();
    await page.getByRole('button', { name: 'Split Transaction' }).click();
    await page.getByRole('alert').filter({ hasText: 'This transaction is already split.' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await close();
  });

  it('shows the server error when the split is refused', async () => {
    const { page, close, rows, rest } = await seededSession();
    await search(page);
    await checkbox(page, rows['Coffee Shop']).check();
    await page.getByRole('button', { name: 'Split Transaction' }).click();
    const dialog = page.getByRole('dialog', { name: 'Split Transaction' });
    await dialog.getByRole('group', { name: 'Split 1' }).getByLabel('Amount').fill('4');
    await dialog.getByRole('group', { name: 'Split 1' }).getByLabel('Category').fill('Dining');
    await dialog.getByRole('group', { name: 'Split 2' }).getByLabel('Category').fill('Tips');
    await dialog.getByRole('button', { name: 'Auto-fill remaining' }).click();
    await rest.deleteTransaction(rows['Coffee Shop'].id);
    await dialog.getByRole('button', { name: 'Save Split' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: `Transaction ${rows['Coffee Shop'].id} not found` })
      .waitFor();
    await page.route('**/trpc/transactions.split**', (route) => route.abort());
    await dialog.getByRole('button', { name: 'Save Split' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: /^Failed to split transaction$/ })
      .waitFor();
    await close();
  });

  it('inspects a split from a part and edits it (reloaded, prefilled, resubmitted)', async () => {
    const { page, close, api, rows } = await seededSession();
    const paycheck = rows['Paycheck']; // 2,500.00
    const made = await api.transactions.split.mutate({
      id: paycheck.id,
      splits: [
        { amount: 200000, category: 'Salary' },
        { amount: 50000, category: 'Savings', splitNote: 'to savings' },
      ],
    });
    await search(page);
    const part = made.childTransactions[1];
    await checkbox(page, part).check();
    await page.getByRole('button', { name: 'Inspect Split' }).click();
    const inspect = page.getByRole('dialog', { name: 'Inspect Split' });
    const details = inspect.getByRole('table', { name: 'Split transaction details' });
    await details.getByText('to savings').waitFor();
    expect(await details.locator('tbody tr').count()).toBe(3);
    expect(await details.getByText('$2,500.00').isVisible()).toBe(true);
    expect(await details.getByText('$500.00', { exact: true }).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page, 'inspect split dialog');

    // Someone else changed the split meanwhile: Edit Split reloads it.
    await api.transactions.split.mutate({
      id: paycheck.id,
      splits: [
        { amount: 150000, category: 'Salary' },
        { amount: 100000, category: 'Savings', splitNote: 'to savings' },
      ],
    });
    await inspect.getByRole('button', { name: 'Edit Split' }).click();
    const dialog = page.getByRole('dialog', { name: 'Split Transaction' });
    const split = (n: number) => dialog.getByRole('group', { name: `Split ${n}` });
    expect(await split(1).getByLabel('Amount').inputValue()).toBe('1,500.00');
    expect(await split(2).getByLabel('Amount').inputValue()).toBe('1,000.00');
    expect(await split(2).getByLabel('Category').inputValue()).toBe('Savings');
    expect(await split(2).getByLabel('Split Note').inputValue()).toBe('to savings');
    await split(2).getByLabel('Amount').fill('');
    await split(1).getByLabel('Amount').fill('2400');
    await dialog.getByRole('button', { name: 'Auto-fill remaining' }).click();
    await dialog.getByRole('button', { name: 'Save Split' }).click();
    await dialog.waitFor({ state: 'detached' });
    const after = await api.transactions.splits.query({ id: paycheck.id });
    expect(after.childTransactions.map((c) => c.amount)).toEqual([240000, 10000]);
    await expect.poll(() => page.getByText('$100.00', { exact: true }).count()).toBeGreaterThan(0);

    // Inspection failure.
    await checkbox(page, paycheck).check();
    await page.route('**/trpc/transactions.splits**', (route) => route.abort());
    await page.getByRole('button', { name: 'Inspect Split' }).click();
    await page
      .getByRole('dialog', { name: 'Inspect Split' })
      .getByText('Failed to load split transaction details.')
      .waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await close();
  });

  it('fixes split status after confirming, and reports a failure', async () => {
    const { page, close, rows } = await seededSession();
    const em = app.server.app.orm.em.fork();
    await em
      .getConnection()
      .execute(
        'update `transaction` set is_split = 1 where id in (?, ?)',
        [rows['Coffee Shop'].id, rows['Paycheck'].id],
        'run',
      );
    await search(page);
    // Out of the filters' way, under "More actions".
    const fixSplitStatus = async () => {
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'Fix Split Status' }).click();
    };
    await fixSplitStatus();
    const confirm = page.getByRole('dialog', { name: 'Fix Split Status' });
    await confirm
      .getByText('This will reset any transactions that are marked as split but have no split children. Continue?')
      .waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await fixSplitStatus();
    await confirm.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'Fixed 2 orphaned split transactions' }).waitFor();
    // The results were reloaded: no row is marked split any more.
    await expect.poll(() => table(page).getByText('Split', { exact: true }).count()).toBe(0);

    await page.route('**/trpc/transactions.fixSplitStatus**', (route) => route.abort());
    await fixSplitStatus();
    await confirm.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'Error fixing split status' }).waitFor();
    await close();
  });
});

describe('Edit Transaction', () => {
  it('creates a transaction with an account, with a notice that vanishes after 3 seconds', async () => {
    const { page, close, api } = await seededSession();
    await page.clock.install();
    await page.goto(`${app.server.url}/create-transaction`);
    await page.getByRole('heading', { name: 'Create Transaction', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Date is required').waitFor();
    await page.getByText('Description is required').waitFor();
    await page.getByText('Amount is required').waitFor();
    await expectNoSeriousA11yViolations(page, 'create transaction');
    await screenshotAndCheckWidth(page, 'create-transaction-1400');

    await page.getByLabel('Date').fill('2024-03-03');
    await page.getByLabel('Description').fill('Bookshop');
    await page.getByLabel('Amount').fill('-12.34');
    await page.getByLabel('Category').fill('Books');
    await page.getByRole('combobox', { name: 'Account' }).click();
    await pick(page).getByRole('option', { name: 'Savings' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const notice = page.getByText('Transaction created successfully');
    await notice.waitFor();
    await page.clock.runFor(2500);
    expect(await notice.isVisible()).toBe(true);
    await page.clock.runFor(1500);
    await notice.waitFor({ state: 'detached' });
    const created = (await allTransactions(api)).find((tx) => tx.description === 'Bookshop');
    expect(created).toMatchObject({
      postDate: '2024-03-03',
      amount: -1234,
      category: 'Books',
      account: 'Savings',
      type: 'debit',
    });
    expect(await page.getByLabel('Description').inputValue()).toBe('');
    await close();
  });

  it('edits a transaction chosen in the table, and shows the failure notice when refused', async () => {
    const { page, close, rows, rest } = await seededSession();
    await search(page);
    await checkbox(page, rows['Coffee Shop']).check();
    await page.getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.waitForURL(`${app.server.url}/transactions/${rows['Coffee Shop'].id}/edit`);
    await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
    expect(await page.getByLabel('Date').inputValue()).toBe('2024-01-05');
    expect(await page.getByLabel('Description').inputValue()).toBe('Coffee Shop');
    expect(await page.getByLabel('Amount').inputValue()).toBe('-4.50');
    expect(await page.getByLabel('Category').inputValue()).toBe('Dining');
    expect(await page.getByRole('combobox', { name: 'Account' }).textContent()).toBe('Checking');
    expect(await page.getByRole('combobox', { name: 'Type' }).textContent()).toBe('debit');
    await page.getByLabel('Description').fill('Coffee Shop Downtown');
    await page.getByLabel('Amount').fill('-5.25');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Transaction updated successfully').waitFor();
    expect(await rest.transaction(rows['Coffee Shop'].id)).toMatchObject({
      description: 'Coffee Shop Downtown',
      amount: -525,
      category: 'Dining',
    });
    // Back to the search, which kept its filters.
    await page.getByRole('button', { name: 'Back' }).click();
    await banner(page).waitFor();
    await expect.poll(() => descriptions(page)).toContain('Coffee Shop Downtown');
    // The edited row is still selected.
    await expect
      .poll(() => page.getByRole('toolbar', { name: 'Selected transactions' }).getByText('1 selected').count())
      .toBe(1);

    // A refused save shows the server's reason (the transaction was deleted meanwhile).
    await page.getByRole('button', { name: 'Clear Selection' }).click();
    await checkbox(page, rows['Grocery Store']).check();
    await page.getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
    await rest.deleteTransaction(rows['Grocery Store'].id);
    await page.getByLabel('Description').fill('Groceries');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `Failed to update transaction: Transaction ${rows['Grocery Store'].id} not found` })
      .waitFor();
    await close();
  });

  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    it(`opens a transaction at its own address, where Account and Type change as on the create form (${width} px)`, async () => {
      const { page, close, rows, rest, api } = await seededSession();
      await page.setViewportSize({ width, height });
      const bill = rows['Electric bill'];
      await page.goto(`${app.server.url}/transactions/${bill.id}/edit`);
      await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
      await expect.poll(() => page.getByLabel('Description').inputValue()).toBe('Electric bill');
      expect(await page.getByRole('combobox', { name: 'Account' }).textContent()).toBe('Checking');
      expect(await page.getByRole('combobox', { name: 'Type' }).textContent()).toBe('debit');
      await expectNoSeriousA11yViolations(page, `edit transaction by address at ${width} px`);

      await page.getByRole('combobox', { name: 'Account' }).click();
      await pick(page).getByRole('option', { name: 'Savings' }).click();
      await page.getByRole('combobox', { name: 'Type' }).click();
      await pick(page).getByRole('option', { name: 'charge', exact: true }).click();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Transaction updated successfully').waitFor();
      expect(await rest.transaction(bill.id)).toMatchObject({ account: 'Savings', type: 'charge', amount: -6000 });
      await expectNoSeriousA11yViolations(page, `edit transaction saved at ${width} px`);

      // A reload opens the same transaction as stored now.
      await page.reload();
      await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
      await expect.poll(() => page.getByRole('combobox', { name: 'Account' }).textContent()).toBe('Savings');
      expect(await page.getByRole('combobox', { name: 'Type' }).textContent()).toBe('charge');

      // The create form offers the same two choices.
      await page.goto(`${app.server.url}/create-transaction`);
      await page.getByRole('heading', { name: 'Create Transaction', level: 1 }).waitFor();
      await page.getByLabel('Date').fill('2024-03-04');
      await page.getByLabel('Description').fill('Move to savings');
      await page.getByLabel('Amount').fill('-50');
      await page.getByRole('combobox', { name: 'Account' }).click();
      await pick(page).getByRole('option', { name: 'Checking' }).click();
      await page.getByRole('combobox', { name: 'Type' }).click();
      await pick(page).getByRole('option', { name: 'transfer', exact: true }).click();
      await expectNoSeriousA11yViolations(page, `create transaction with a type at ${width} px`);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Transaction created successfully').waitFor();
      const created = (await allTransactions(api)).find((tx) => tx.description === 'Move to savings');
      expect(created).toMatchObject({ account: 'Checking', type: 'transfer', amount: -5000 });

      // An address of no transaction says so.
      await page.goto(`${app.server.url}/transactions/999999999/edit`);
      await page.getByRole('heading', { name: 'Transaction not found', level: 1 }).waitFor();
      await expectNoSeriousA11yViolations(page, `no such transaction at ${width} px`);
      await close();
    });
  }
});
