import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  screenshotAndCheckWidth,
  signedInPage,
  trpcApi,
  useBrowserAndServer,
} from './harness';

/** Rules: create a rule and see its live count, import a CSV through it, apply rules to stored rows. */
const app = useBrowserAndServer();

/** An MUI select by its label (its accessible name also holds the chosen value). */
const selectBox = (page: Page, label: string) => page.getByRole('combobox', { name: new RegExp(`^${label}(\\s|$)`) });
async function choose(page: Page, label: string, option: string) {
  await selectBox(page, label).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}
const ruleNames = (page: Page) =>
  page.getByRole('list', { name: 'Rules' }).getByRole('listitem').locator('.MuiListItemText-primary').allTextContents();

async function openRules() {
  const session = await signedInPage(app.browser, app.server, 1400);
  session.page.setDefaultTimeout(15_000);
  const api = trpcApi(app.server, session.user.accessToken);
  await api.accounts.create.mutate({ name: 'Checking', type: 'checking', balance: 0 });
  return { ...session, api };
}

async function allTransactions(api: ReturnType<typeof trpcApi>) {
  return api.transactions.list.query({ startDate: '1900-01-01', endDate: '2100-12-31' });
}

describe('Rules screen', () => {
  it('creates a rule with a live match count, imports a CSV through it, reorders, disables and deletes', async () => {
    const { page, close, api, errors } = await openRules();
    for (const [description, amount] of [
      ['STARBUCKS 0001', -450],
      ['Starbucks 0002', -520],
      ['Tesco', -2000],
    ] as const) {
      await api.transactions.create.mutate({ postDate: '2024-01-10', description, amount, account: 'Checking' });
    }
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Rules' }).click();
    await page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
    await page.getByText('No rules yet.', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New rule' });
    await dialog.getByLabel('Rule name').fill('Coffee');
    await dialog.getByLabel('Condition 1 value').fill('starbucks');
    await expect
      .poll(() => dialog.getByTestId('rule-match-count').textContent())
      .toMatch(/^Matches 2 of your 3 transactions/);
    // A second condition narrows the count live.
    await dialog.getByRole('button', { name: 'Add condition' }).click();
    await choose(page, 'Condition 2 field', 'Amount');
    await choose(page, 'Condition 2 operator', 'is less than');
    await dialog.getByLabel('Condition 2 value').fill('-5.00');
    await expect
      .poll(() => dialog.getByTestId('rule-match-count').textContent())
      .toMatch(/^Matches 1 of your 3 transactions/);
    await dialog.getByLabel('Condition 2 value').fill('0');
    await expect
      .poll(() => dialog.getByTestId('rule-match-count').textContent())
      .toMatch(/^Matches 2 of your 3 transactions/);
    // A category no one has yet is created only by choosing to create it.
    await dialog.getByLabel('Set category').fill('Coffee Shops');
    await page.getByRole('option', { name: 'Create category "Coffee Shops"' }).click();
    await dialog.getByText('"Coffee Shops" will be created').waitFor();
    await expectNoSeriousA11yViolations(page, 'rule dialog');
    await dialog.getByRole('button', { name: 'Save rule' }).click();
    await page.getByText("Rule 'Coffee' saved").waitFor();
    await expect.poll(() => ruleNames(page)).toEqual(['Coffee']);
    const [saved] = await api.rules.list.query();
    expect(saved).toMatchObject({
      conditions: [
        { field: 'description', op: 'contains', value: 'starbucks' },
        { field: 'amount', op: 'lt', value: 0 },
      ],
      actions: { category: 'Coffee Shops' },
    });

    // A pattern the linear-time matcher cannot run is refused with the server's reason, nothing saved.
    await page.getByRole('button', { name: 'New rule' }).click();
    await dialog.getByLabel('Rule name').fill('Bad');
    await choose(page, 'Condition 1 operator', 'matches (regular expression)');
    await dialog.getByLabel('Condition 1 value').fill('(a+)\\1$');
    await dialog.getByLabel('Set type').click();
    await page.getByRole('option', { name: 'transfer' }).click();
    await dialog.getByRole('button', { name: 'Save rule' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'uses a backreference' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A second rule, then move it above the first.
    await page.getByRole('button', { name: 'New rule' }).click();
    await dialog.getByLabel('Rule name').fill('Groceries');
    await choose(page, 'Condition 1 operator', 'starts with');
    await dialog.getByLabel('Condition 1 value').fill('tesco');
    await expect.poll(() => dialog.getByTestId('rule-match-count').textContent()).toMatch(/^Matches 1 of your 3/);
    await dialog.getByLabel('Set category').fill('Groceries');
    await page.getByRole('option', { name: 'Create category "Groceries"' }).click();
    await dialog.getByRole('button', { name: 'Save rule' }).click();
    await expect.poll(() => ruleNames(page)).toEqual(['Coffee', 'Groceries']);
    await page.getByRole('button', { name: 'Move Groceries up' }).click();
    await expect.poll(() => ruleNames(page)).toEqual(['Groceries', 'Coffee']);
    expect((await api.rules.list.query()).map((r) => r.name)).toEqual(['Groceries', 'Coffee']);
    await screenshotAndCheckWidth(page, 'rules-1400');

    // Import a CSV on the Upload screen: the preview names the rule, the stored row has the category.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Upload', exact: true }).click();
    await page.getByRole('heading', { name: 'Upload CSV' }).waitFor();
    await choose(page, 'Account', 'Checking (checking)');
    await page.getByLabel('CSV file').setInputFiles({
      name: 'march.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Date,Description,Amount\n2024-03-01,STARBUCKS #77,-3.90\n2024-03-02,Cinema,-12.00\n'),
    });
    await choose(page, 'Transaction Type', 'debit');
    await page.getByText('Ready to import 2 transactions.').waitFor();
    await page.getByRole('table', { name: 'Rows as they will be stored' }).getByText("by rule 'Coffee'").waitFor();
    await page.getByRole('form', { name: 'Upload CSV' }).getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Imported 2 transactions' }).waitFor();
    const imported = await allTransactions(api);
    expect(imported.find((t) => t.description === 'STARBUCKS #77')?.category).toBe('Coffee Shops');
    expect(imported.find((t) => t.description === 'Cinema')?.category).toBeNull();

    // Disable, then delete with confirmation.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Rules' }).click();
    // The switch follows the query cache, which re-renders a moment after the click: wait for it, then for the server.
    const coffeeSwitch = page.getByRole('switch', { name: 'Coffee enabled' });
    await coffeeSwitch.click();
    await expect.poll(() => coffeeSwitch.isChecked()).toBe(false);
    await expect.poll(async () => (await api.rules.list.query()).find((r) => r.name === 'Coffee')?.enabled).toBe(false);
    await page.getByRole('button', { name: 'Delete Coffee' }).click();
    await page.getByRole('dialog', { name: 'Delete rule' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => ruleNames(page)).toEqual(['Groceries']);
    expect(errors).toEqual([]);
    await close();
  }, 180_000);

  it('applies rules to existing transactions after showing what would change', async () => {
    const { page, close, api, errors } = await openRules();
    for (const [description, amount] of [
      ['UBER *TRIP 1', -1500],
      ['Uber trip 2', -900],
      ['Bakery', -300],
    ] as const) {
      await api.transactions.create.mutate({ postDate: '2024-02-10', description, amount, account: 'Checking' });
    }
    await api.rules.create.mutate({
      name: 'Taxi',
      conditions: [{ field: 'description', op: 'contains', value: 'uber' }],
      actions: { category: 'Transport' },
      createCategory: true,
    });
    await page.goto(`${app.server.url}/rules`);
    await expect.poll(() => ruleNames(page)).toEqual(['Taxi']);
    await page.getByRole('button', { name: 'Apply to existing transactions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply rules to existing transactions' });
    await dialog.getByRole('button', { name: 'Preview changes' }).click();
    await dialog.getByText('2 of 2 matching transactions would change').waitFor();
    const rows = dialog.getByRole('table', { name: 'Changes the rules would make' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    // Each change reads as the transaction a person knows (date, description, amount), never an id.
    expect(await rows.first().locator('td').allTextContents()).toEqual([
      '2024-02-10',
      'Uber trip 2',
      '−$9.00',
      'Category: (none) → Transport',
      'Taxi',
    ]);
    // Nothing changed yet.
    expect((await allTransactions(api)).every((t) => t.category === null)).toBe(true);
    await expectNoSeriousA11yViolations(page, 'apply rules preview');
    await dialog.getByRole('button', { name: 'Apply 2 changes' }).click();
    await page.getByText('Rules changed 2 transactions').waitFor();
    const after = await allTransactions(api);
    expect(Object.fromEntries(after.map((t) => [t.description, t.category]))).toEqual({
      'UBER *TRIP 1': 'Transport',
      'Uber trip 2': 'Transport',
      Bakery: null,
    });
    expect(errors).toEqual([]);
    await close();
  }, 180_000);
});
