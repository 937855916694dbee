import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, screenshotAndCheckWidth } from './harness';
import { useUploadScreen } from './upload-screen';

const { allTransactions, openUpload, choose, uploadButton, previewRows } = useUploadScreen();

const LAYOUTS = path.resolve('tests/fixtures/bank-layouts');
/** Discover's card export: 5 rows, charges positive, one payment negative. */
const CARD = path.join(LAYOUTS, 'us-discover-card-charges-positive.csv');
/** No header: date, text, paid out, paid in, balance. */
const HEADERLESS = path.join(LAYOUTS, 'uk-headerless-debit-credit-balance.csv');
const SEVEN_ACCOUNTS = path.resolve(
  '../shared/fixtures/bank-statements/ofx102-us-credit-union-7-accounts-bom-crlf.ofx',
);

/**
 * The Upload screen at `width` px: signed in at 576 px at least (the sign-in helper waits for the
 * welcome text, hidden on the smallest screens), then narrowed.
 */
async function openAt(width: number, accounts: Parameters<typeof openUpload>[1]) {
  const session = await openUpload(Math.max(width, 576), accounts);
  if (width < 576) await session.page.setViewportSize({ width, height: 844 });
  return session;
}

/** The first preview row's amount, in the table (desktop) or its card (phone). */
async function amountOfFirstRow(page: Parameters<typeof previewRows>[0]): Promise<string | undefined> {
  const cards = page.getByRole('list', { name: 'Rows as they will be stored' });
  if ((await cards.count()) > 0) {
    const card = cards.getByRole('listitem').first();
    return (await card.locator('p').nth(1).textContent()) ?? undefined;
  }
  return (await previewRows(page).first().locator('td').allTextContents())[3];
}

describe('Upload: no sign flipped without a word', () => {
  it.each([1366, 390])(
    'at %i px a card statement with positive charges warns before import and flips in place',
    async (width) => {
      const { page, close, api, errors } = await openAt(width, [{ name: 'Visa', type: 'credit' }]);
      await page.getByLabel('CSV file').setInputFiles(CARD);
      await choose(page, 'Account', 'Visa (credit)');
      const warning = page.getByRole('alert').filter({ hasText: '4 of 5 rows would be money in' });
      await warning.waitFor();
      await expect.poll(async () => amountOfFirstRow(page)).toBe('$54.12');
      await expectNoSeriousA11yViolations(page, `upload money-in warning ${width}`);
      await screenshotAndCheckWidth(page, `upload-money-in-warning-${width}`);

      await warning.getByRole('button', { name: 'Flip signs' }).click();
      await expect.poll(async () => amountOfFirstRow(page)).toBe('−$54.12');
      await expect.poll(() => warning.count()).toBe(0);
      await expectNoSeriousA11yViolations(page, `upload flipped ${width}`);
      await uploadButton(page).click();
      await page.getByRole('status').filter({ hasText: 'Imported 5 transactions' }).waitFor();
      expect((await allTransactions(api)).reduce((sum, t) => sum + t.amount, 0)).toBe(1026);
      expect(errors).toEqual([]);
      await close();
    },
  );
});

describe('Upload: which column was taken for what', () => {
  it.each([1366, 390])(
    'at %i px a headerless file shows each column role, and one click changes a role',
    async (width) => {
      const { page, close, errors } = await openAt(width, [{ name: 'Current', type: 'checking' }]);
      await page.getByLabel('CSV file').setInputFiles(HEADERLESS);
      await choose(page, 'Account', 'Current (checking)');
      await page.getByText('Ready to import 6 transactions.').waitFor();
      const columns = page.getByRole('group', { name: 'Detected columns' });
      await columns.getByText('Column 3 → Money out').waitFor();
      await columns.getByText('Column 4 → Money in').waitFor();
      await columns.getByText('Column 5 → Not used').waitFor();
      await expect.poll(async () => amountOfFirstRow(page)).toBe('−$12.50');
      await expectNoSeriousA11yViolations(page, `upload columns ${width}`);

      // Column 2 left out, in one click: the file is read again with that mapping.
      await columns.getByRole('button', { name: /^Column 2: Description/ }).click();
      await page.getByRole('menuitem', { name: 'Not used' }).click();
      await page.getByText('Using the mapping chosen above', { exact: false }).waitFor();
      await columns.getByText('Column 2 → Not used').waitFor();
      await columns.getByText('Column 3 → Money out').waitFor();
      await expectNoSeriousA11yViolations(page, `upload columns changed ${width}`);
      expect(errors).toEqual([]);
      await close();
    },
  );
});

describe('Upload: one file, several accounts', () => {
  it.each([1366, 390])('at %i px lists each statement and sends each where it is told', async (width) => {
    const { page, close, api, errors } = await openAt(width, [
      { name: 'Main', type: 'checking' },
      { name: 'Card', type: 'credit' },
    ]);
    await page.getByLabel('CSV file').setInputFiles(SEVEN_ACCOUNTS);
    await choose(page, 'Account', 'Main (checking)');
    await page.getByRole('heading', { name: '7 accounts in this file' }).waitFor();
    const statements = page.locator('[data-testid^="statement-"]');
    await expect.poll(() => statements.count()).toBe(7);
    const boxes = page.getByRole('combobox', { name: /^Import .* into/ });
    await boxes.nth(0).click();
    await page.getByRole('option', { name: 'A new account…' }).click();
    await page.getByLabel(/^Name of the new account for/).fill('Share Savings');
    await boxes.nth(1).click();
    await page.getByRole('option', { name: 'Skip this statement' }).click();
    await expectNoSeriousA11yViolations(page, `upload statements ${width}`);
    await screenshotAndCheckWidth(page, `upload-statements-${width}`);
    await uploadButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Imported' }).waitFor();
    const stored = await allTransactions(api);
    const accounts = new Set(stored.map((t) => t.account));
    expect(accounts.has('Share Savings')).toBe(true);
    expect(accounts.has('Main')).toBe(true);
    expect((await api.accounts.list.query()).map((a) => a.name)).toContain('Share Savings');
    expect(errors).toEqual([]);
    await close();
  });
});
