import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshotAndCheckWidth, signedInPage } from './harness';
import { useTransactionsScreen } from './transactions-screen';

const {
  app,
  apiFor,
  seededSession,
  allTransactions,
  pick,
  banner,
  openFilters,
  table,
  rowLabel,
  checkbox,
  search,
  bannerText,
  descriptions,
} = useTransactionsScreen();

describe('Transaction Search', () => {
  it('searches by itself once both dates are set, by every filter via Search, and clears', async () => {
    const { page, close, errors } = await seededSession();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Transactions', exact: true })
      .click();
    const searchButton = page.getByRole('button', { name: 'Search', exact: true });
    // It opens on this month (nothing seeded there), searched at once.
    await banner(page).waitFor();
    // The filters fold into their summary line once the search has run; it opens them.
    await openFilters(page);
    expect(await page.getByLabel('Start Date').inputValue()).toMatch(/^\d{4}-\d{2}-01$/);
    expect(await bannerText(page)).toBe('Found 0 transactionsNet: $0.00');
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    expect(await searchButton.isDisabled()).toBe(true);
    await page.getByLabel('Start Date').fill('2024-01-01');
    expect(await searchButton.isDisabled()).toBe(true);

    // Hold the answer to see 'Searching...'.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/trpc/transactions.list**', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('End Date').fill('2024-02-29');
    await page.getByRole('button', { name: 'Searching...' }).waitFor();
    expect(await page.getByRole('button', { name: 'Searching...' }).isDisabled()).toBe(true);
    release();
    await banner(page).waitFor();
    await page.unroute('**/trpc/transactions.list**');
    expect(await bannerText(page)).toBe('Found 5 transactionsNet: +$2,340.16');
    // Default order: newest first. Money out is red with a minus sign.
    expect(await descriptions(page)).toEqual([
      'Electric bill',
      'Coffee Beans',
      'Paycheck',
      'Grocery Store',
      'Coffee Shop',
    ]);
    const negative = table(page).getByText('−$82.35', { exact: true });
    const [r, g] = (await negative.evaluate((el) => getComputedStyle(el).color)).match(/\d+/g)!.map(Number);
    expect(r).toBeGreaterThan(g);
    expect(await table(page).getByText('$2,500.00', { exact: true }).isVisible()).toBe(true);
    await expectNoSeriousA11yViolations(page, 'transaction search with results');
    await screenshotAndCheckWidth(page, 'transactions-search-1400');

    // Categories (including 'uncategorized').
    await page.getByLabel('Categories').fill('Din');
    await pick(page).getByRole('option', { name: 'Dining' }).click();
    await page.getByLabel('Categories').fill('uncat');
    await pick(page).getByRole('option', { name: 'Uncategorized' }).click();
    await page.keyboard.press('Escape');
    await searchButton.click();
    await expect.poll(() => descriptions(page)).toEqual(['Electric bill', 'Coffee Shop']);
    expect(await bannerText(page)).toBe('Found 2 transactionsNet: −$64.50');
    // Search folded the form into its summary line.
    await openFilters(page);
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    expect(await banner(page).count()).toBe(0);
    expect(await page.getByLabel('Start Date').inputValue()).toBe('');

    // Account.
    await search(page);
    await page.getByRole('combobox', { name: 'Account' }).click();
    await pick(page).getByRole('option', { name: 'Savings' }).click();
    await searchButton.click();
    await expect.poll(() => descriptions(page)).toEqual(['Coffee Beans', 'Paycheck']);
    await openFilters(page);

    // Description (case-insensitive substring) with the account reset.
    await page.getByRole('combobox', { name: 'Account' }).click();
    await pick(page).getByRole('option', { name: 'All accounts' }).click();
    await page.getByLabel('Description').fill('coffee');
    await page.getByLabel('Description').press('Enter');
    await expect.poll(() => descriptions(page)).toEqual(['Coffee Beans', 'Coffee Shop']);
    expect(await bannerText(page)).toBe('Found 2 transactionsNet: −$17.49');
    await openFilters(page);

    // Min and max amounts (decimals, on the magnitude).
    await page.getByLabel('Description').fill('');
    await page.getByLabel('Min Amount').fill('10');
    await page.getByLabel('Max Amount').fill('82.35');
    await searchButton.click();
    await expect.poll(() => descriptions(page)).toEqual(['Electric bill', 'Coffee Beans', 'Grocery Store']);
    await openFilters(page);
    await page.getByLabel('Max Amount').fill('82.34');
    await searchButton.click();
    await expect.poll(() => descriptions(page)).toEqual(['Electric bill', 'Coffee Beans']);
    await openFilters(page);

    await page.getByRole('button', { name: 'Clear Filters' }).click();
    expect(await banner(page).count()).toBe(0);
    expect(await page.getByLabel('Min Amount').inputValue()).toBe('');
    expect(await searchButton.isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('keeps a failed search quiet (only logged)', async () => {
    const { page, close, errors } = await seededSession();
    await page.goto(`${app.server.url}/transactions?filters=open`);
    await page.route('**/trpc/transactions.list**', (route) => route.abort());
    await page.getByLabel('Start Date').fill('2024-01-01');
    await page.getByLabel('End Date').fill('2024-02-29');
    await expect.poll(() => errors.some((e) => e.includes('Transaction search failed'))).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Search', exact: true }).isEnabled()).toBe(true);
    await close();
  });

  it('is usable at 576 px', async () => {
    const { page, close } = await seededSession(576);
    await search(page);
    await page.getByRole('checkbox', { name: /^Select transaction Paycheck/ }).check();
    await page.getByRole('toolbar', { name: 'Selected transactions' }).waitFor();
    await screenshotAndCheckWidth(page, 'transactions-search-576');
    await expectNoSeriousA11yViolations(page, 'transaction search at 576 px');
    await close();
  });
});

describe('Transaction table', () => {
  it('sorts by each column and edits category and type inline at once', async () => {
    const { page, close, rows, errors, rest } = await seededSession();
    await search(page);
    const head = table(page).locator('thead');
    await head.getByRole('button', { name: 'Amount' }).click();
    expect(await descriptions(page)).toEqual([
      'Paycheck',
      'Coffee Shop',
      'Coffee Beans',
      'Electric bill',
      'Grocery Store',
    ]);
    await head.getByRole('button', { name: 'Amount' }).click();
    expect(await descriptions(page)).toEqual([
      'Grocery Store',
      'Electric bill',
      'Coffee Beans',
      'Coffee Shop',
      'Paycheck',
    ]);
    await head.getByRole('button', { name: 'Description' }).click();
    expect(await descriptions(page)).toEqual([
      'Coffee Beans',
      'Coffee Shop',
      'Electric bill',
      'Grocery Store',
      'Paycheck',
    ]);
    expect(await table(page).locator('th[aria-sort="ascending"]').textContent()).toContain('Description');
    await head.getByRole('button', { name: 'Category' }).click();
    expect(await descriptions(page)).toEqual([
      'Coffee Shop',
      'Grocery Store',
      'Coffee Beans',
      'Paycheck',
      'Electric bill',
    ]);
    await head.getByRole('button', { name: 'Account' }).click();
    expect((await descriptions(page)).slice(3)).toEqual(['Paycheck', 'Coffee Beans']);
    await head.getByRole('button', { name: 'Type' }).click();
    expect((await descriptions(page))[0]).toBe('Paycheck');
    await head.getByRole('button', { name: 'Date' }).click();
    expect(await descriptions(page)).toEqual([
      'Electric bill',
      'Coffee Beans',
      'Paycheck',
      'Grocery Store',
      'Coffee Shop',
    ]);

    const bill = rows['Electric bill'];
    await page.getByLabel(`Category for ${rowLabel(bill)}`).selectOption('Groceries');
    await expect.poll(async () => (await rest.transaction(bill.id)).category).toBe('Groceries');
    await page.getByLabel(`Type for ${rowLabel(bill)}`).selectOption('transfer');
    await expect.poll(async () => (await rest.transaction(bill.id)).type).toBe('transfer');
    await page.getByLabel(`Category for ${rowLabel(bill)}`).selectOption('');
    await expect.poll(async () => (await rest.transaction(bill.id)).category).toBe(null);

    // A refused inline change is only logged and the row shows the stored value again.
    await rest.deleteTransaction(rows['Coffee Shop'].id);
    const coffee = page.getByLabel(`Type for ${rowLabel(rows['Coffee Shop'])}`);
    await coffee.selectOption('charge');
    await expect.poll(() => coffee.inputValue()).toBe('debit');
    expect(errors.some((e) => e.includes(`Failed to update transaction ${rows['Coffee Shop'].id}`))).toBe(true);
    // ...and the person reads why: a refused save shows the server's message.
    await page
      .getByRole('alert')
      .filter({ hasText: `Failed to update transaction: Transaction ${rows['Coffee Shop'].id} not found` })
      .waitFor();
    await close();
  });

  it('selects rows, bulk edits category, type and account, and refuses an empty bulk edit', async () => {
    const { page, close, api, rows, rest } = await seededSession();
    await search(page);
    const bar = page.getByRole('toolbar', { name: 'Selected transactions' });
    expect(await bar.count()).toBe(0);
    await checkbox(page, rows['Coffee Shop']).check();
    await bar.getByText('1 selected').waitFor();
    for (const name of ['Bulk Edit', 'Delete Selected', 'Clear Selection', 'Split Transaction']) {
      expect(await bar.getByRole('button', { name, exact: true }).isVisible()).toBe(true);
    }
    expect(await bar.getByRole('button', { name: 'Inspect Split' }).count()).toBe(0);
    await checkbox(page, rows['Grocery Store']).check();
    await bar.getByText('2 selected').waitFor();
    expect(await bar.getByRole('button', { name: 'Split Transaction' }).count()).toBe(0);
    await bar.getByRole('button', { name: 'Clear Selection' }).click();
    expect(await bar.count()).toBe(0);

    await page.getByRole('checkbox', { name: 'Select all transactions' }).check();
    await bar.getByText('5 selected').waitFor();
    await checkbox(page, rows['Paycheck']).uncheck();
    await bar.getByText('4 selected').waitFor();
    await bar.getByRole('button', { name: 'Bulk Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk Edit 4 transactions' });
    await dialog.getByRole('button', { name: 'Update' }).click();
    await dialog.getByText('Please select at least one field to update').waitFor();
    await expectNoSeriousA11yViolations(page, 'bulk edit dialog');
    await dialog.getByLabel('Category').fill('Household');
    await dialog.getByRole('combobox', { name: 'Type' }).click();
    await pick(page).getByRole('option', { name: 'charge' }).click();
    await dialog.getByRole('combobox', { name: 'Account' }).click();
    await pick(page).getByRole('option', { name: 'Savings' }).click();
    await dialog.getByRole('button', { name: 'Update' }).click();
    await dialog.waitFor({ state: 'detached' });
    const stored = await allTransactions(api);
    const changed = stored.filter((tx) => tx.category === 'Household');
    expect(changed.map((tx) => tx.description).sort()).toEqual([
      'Coffee Beans',
      'Coffee Shop',
      'Electric bill',
      'Grocery Store',
    ]);
    expect(changed.every((tx) => tx.type === 'charge' && tx.account === 'Savings')).toBe(true);
    // Merged into the list at once.
    expect(await page.getByLabel(`Category for ${rowLabel(rows['Electric bill'])}`).inputValue()).toBe('Household');
    expect(await page.getByLabel(`Type for ${rowLabel(rows['Coffee Shop'])}`).inputValue()).toBe('charge');

    // The server refuses (one selected row was deleted meanwhile).
    await page.getByRole('checkbox', { name: 'Select all transactions' }).check();
    await rest.deleteTransaction(rows['Paycheck'].id);
    await bar.getByRole('button', { name: 'Bulk Edit' }).click();
    const again = page.getByRole('dialog', { name: /^Bulk Edit/ });
    await again.getByRole('combobox', { name: 'Type' }).click();
    await pick(page).getByRole('option', { name: 'debit' }).click();
    await again.getByRole('button', { name: 'Update' }).click();
    await again.getByText(`Failed to update transactions: Transaction ${rows['Paycheck'].id} not found`).waitFor();
    await again.getByRole('button', { name: 'Cancel' }).click();
    await close();
  });

  it('deletes the selected rows after confirming, and reports a refused delete', async () => {
    const { page, close, api, rows, rest } = await seededSession();
    await search(page);
    const bar = page.getByRole('toolbar', { name: 'Selected transactions' });
    await checkbox(page, rows['Coffee Shop']).check();
    await checkbox(page, rows['Electric bill']).check();
    await bar.getByRole('button', { name: 'Delete Selected' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Selected' });
    await confirm
      .getByText(
        'Are you sure you want to delete 2 selected transactions? They go to the trash (History, Trash), where they can be restored for 30 days.',
      )
      .waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await allTransactions(api)).length).toBe(6);
    await bar.getByRole('button', { name: 'Delete Selected' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => descriptions(page)).toEqual(['Coffee Beans', 'Paycheck', 'Grocery Store']);
    expect(await bar.count()).toBe(0);
    expect((await allTransactions(api)).map((tx) => tx.description).sort()).toEqual([
      'Coffee Beans',
      'Grocery Store',
      'Old purchase',
      'Paycheck',
    ]);

    await checkbox(page, rows['Paycheck']).check();
    await rest.deleteTransaction(rows['Paycheck'].id);
    await bar.getByRole('button', { name: 'Delete Selected' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `Failed to delete some transactions: Transaction ${rows['Paycheck'].id} not found` })
      .waitFor();
    await close();
  });
});

describe('Keyboard only', () => {
  /** Presses Tab (or Shift+Tab) until the focused element's accessible text matches. */
  async function tabTo(page: Page, text: string, backwards = false) {
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        if (!el) return '';
        return (el.getAttribute('aria-label') ?? el.labels?.[0]?.innerText ?? el.innerText)
          .replace(/\s*\*$/, '')
          .trim();
      });
      if (focused === text) return;
    }
    throw new Error(`could not reach "${text}" with the keyboard`);
  }

  it('selects, bulk edits and sorts with the keyboard; Escape closes dialogs', async () => {
    const { page, close, api, rows, rest } = await seededSession();
    await search(page);
    await page.getByLabel('Max Amount').focus();
    await tabTo(page, 'Search');
    await tabTo(page, `Select transaction ${rowLabel(rows['Electric bill'])}`);
    await page.keyboard.press('Space');
    await tabTo(page, `Select transaction ${rowLabel(rows['Coffee Beans'])}`);
    await page.keyboard.press('Space');
    await tabTo(page, 'Bulk Edit', true);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Bulk Edit 2 transactions' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Bulk Edit');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await tabTo(page, 'Category');
    await page.keyboard.type('Utilities');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const stored = await allTransactions(api);
    expect(
      stored
        .filter((tx) => tx.category === 'Utilities')
        .map((tx) => tx.description)
        .sort(),
    ).toEqual(['Coffee Beans', 'Electric bill']);

    // Inline type change with the keyboard.
    await page.getByLabel(`Type for ${rowLabel(rows['Paycheck'])}`).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await rest.transaction(rows['Paycheck'].id)).type).toBe('debit');

    // Sorting with the keyboard: the headers are one Tab stop (the sorted column), the arrows move between them.
    await tabTo(page, 'Date', true);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Amount');
    await page.keyboard.press('Enter');
    expect((await descriptions(page))[0]).toBe('Paycheck');

    // Split dialog closes on Escape.
    await tabTo(page, 'Clear Selection', true);
    await page.keyboard.press('Enter');
    await page.getByLabel(`Select transaction ${rowLabel(rows['Grocery Store'])}`).focus();
    await page.keyboard.press('Space');
    await tabTo(page, 'Split Transaction', true);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Split Transaction' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await close();
  });
});

describe('20,000 rows', () => {
  it('renders only the visible rows, sorts and scrolls without freezing', async () => {
    const { page, close, user } = await signedInPage(app.browser, app.server);
    const api = apiFor(user.accessToken);
    await api.accounts.create.mutate({ name: 'Big', type: 'checking', balance: 0 });
    const lines = ['Date,Description,Amount,Category'];
    for (let i = 0; i < 20_000; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      const month = String((i % 12) + 1).padStart(2, '0');
      lines.push(
        `2024-${month}-${day},Purchase ${i},-${(i % 900) + 1}.${String(i % 100).padStart(2, '0')},Cat ${i % 25}`,
      );
    }
    const body = new FormData();
    body.append('file', new Blob([lines.join('\n')]), 'big.csv');
    body.append('account', 'Big');
    body.append('transactionType', 'debit');
    const res = await fetch(`${app.server.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}` },
      body,
    });
    expect(res.status).toBe(201);

    await page.goto(`${app.server.url}/transactions?filters=open`);
    await search(page, '2024-01-01', '2024-12-31');
    expect(await page.getByText('Found 20000 transactions').isVisible()).toBe(true);
    expect(await table(page).getAttribute('aria-rowcount')).toBe('20001');
    expect(await table(page).locator('tbody tr[aria-rowindex]').count()).toBeLessThan(60);

    await table(page).locator('thead').getByRole('button', { name: 'Amount' }).click();
    await expect.poll(() => descriptions(page).then((d) => d[0])).toMatch(/^Purchase \d+$/);
    const first = await table(page).locator('tbody tr[aria-rowindex]').first().locator('td').nth(3).textContent();
    expect(first).toBe('−$1.00');

    // Scroll to the end: the last rows are rendered, still only a window of them.
    await table(page).evaluate((el) => {
      const scroller = el.parentElement!;
      scroller.scrollTop = scroller.scrollHeight;
    });
    await expect.poll(() => table(page).locator('tbody tr[aria-rowindex="20001"]').count()).toBe(1);
    expect(await table(page).locator('tbody tr[aria-rowindex]').count()).toBeLessThan(60);

    // Select all 20,000 and clear.
    await page.getByRole('checkbox', { name: 'Select all transactions' }).check();
    await page.getByText('20000 selected').waitFor();
    await page.getByRole('button', { name: 'Clear Selection' }).click();
    await close();
  });
});
