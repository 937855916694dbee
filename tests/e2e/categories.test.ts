import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { data } from '../helpers/api';
import { trpcClient } from '../helpers/trpc-client';
import { useBrowserAndServer, expectNoSeriousA11yViolations, screenshotAndCheckWidth, signedInPage } from './harness';

const app = useBrowserAndServer();

async function listed(page: Page): Promise<string[]> {
  return page
    .getByRole('list', { name: 'Categories' })
    .getByRole('listitem')
    .locator('.MuiListItemText-primary')
    .allTextContents();
}

async function open(width = 1400) {
  const session = await signedInPage(app.browser, app.server, width, 900, {}, { path: '/categories' });
  await session.page.getByRole('heading', { name: 'Categories', level: 1 }).waitFor();
  return session;
}

describe('Categories', () => {
  it('adds categories (by click and by Enter) and lists them sorted by name', async () => {
    const { page, close, user, errors } = await open();
    await page.getByText('No categories yet.', { exact: false }).waitFor();
    const input = page.getByLabel('Add a New Category');
    await input.fill('Groceries');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => listed(page)).toEqual(['Groceries']);
    expect(await input.inputValue()).toBe('');
    await page.getByText("Category 'Groceries' added").waitFor();
    // Keyboard: type and press Enter.
    await input.fill('  apple  ');
    await input.press('Enter');
    await expect.poll(() => listed(page)).toEqual(['apple', 'Groceries']);
    await input.fill('Zoo');
    await input.press('Enter');
    await expect.poll(() => listed(page)).toEqual(['apple', 'Groceries', 'Zoo']);
    const stored = data(await trpcClient(app.server.url, user.accessToken).categories.list.query());
    expect(stored.map((c) => c.name).sort()).toEqual(['Groceries', 'Zoo', 'apple']);
    await expectNoSeriousA11yViolations(page, 'categories');
    await screenshotAndCheckWidth(page, 'categories-1400');
    expect(errors).toEqual([]);
    await close();
  });

  it('refuses an empty name and shows the server error for a duplicate', async () => {
    const { page, close } = await open();
    const input = page.getByLabel('Add a New Category');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Category name is required' }).waitFor();
    await input.fill('   ');
    await input.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Category name is required' }).waitFor();
    await input.fill('Travel');
    await input.press('Enter');
    await expect.poll(() => listed(page)).toEqual(['Travel']);
    await input.fill('travel');
    await input.press('Enter');
    await page.getByRole('alert').filter({ hasText: "Category 'Travel' already exists" }).waitFor();
    expect(await listed(page)).toEqual(['Travel']);
    await expectNoSeriousA11yViolations(page, 'categories with an error');
    await close();
  });

  it("shows 'Failed to add category' when the call never reaches the server", async () => {
    const { page, close } = await open();
    await page.route('**/trpc/categories.create**', (route) => route.abort());
    await page.getByLabel('Add a New Category').fill('Travel');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Failed to add category$/ })
      .waitFor();
    await close();
  });

  it("shows 'Failed to fetch categories' when the list cannot be loaded", async () => {
    const { page, close } = await open();
    await page.route('**/trpc/categories.list**', (route) => route.abort());
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'Failed to fetch categories' }).waitFor({ timeout: 20_000 });
    await close();
  });

  it('renames, hides, merges (saying how many transactions move) and deletes with reassign', async () => {
    const { page, close, user } = await open();
    const api = trpcClient(app.server.url, user.accessToken);
    data(await api.accounts.create.mutate({ name: 'Checking', type: 'checking' }));
    for (const [description, category] of [
      ['Shop', 'Food'],
      ['Market', 'Food'],
      ['Cafe', 'Dining'],
    ])
      data(
        await api.transactions.create.mutate({
          account: 'Checking',
          postDate: '2024-03-01',
          description,
          amount: -500,
          category,
        }),
      );
    data(await api.categories.create.mutate({ name: 'Spare' }));
    await page.reload();
    await expect.poll(() => listed(page)).toEqual(['Dining', 'Food', 'Spare']);

    await page.getByRole('button', { name: 'Edit Food' }).click();
    const edit = page.getByRole('dialog', { name: "Edit 'Food'" });
    await edit.getByLabel('Name').fill('Groceries');
    await edit.getByLabel(/^Hidden/).check();
    await expectNoSeriousA11yViolations(page, 'category edit dialog');
    await edit.getByLabel('Name').press('Enter');
    await page.getByText("Category 'Groceries' saved").waitFor();
    await expect.poll(() => listed(page)).toEqual(['Dining', 'Groceries', 'Spare']);
    const groceries = data(await api.categories.list.query()).find((c) => c.name === 'Groceries');
    expect(groceries?.hidden).toBe(true);

    await page.getByRole('button', { name: 'Merge Groceries' }).click();
    const merge = page.getByRole('dialog', { name: "Merge 'Groceries'" });
    await merge.getByText("2 transactions will move from 'Groceries' to the category you choose").waitFor();
    await merge.getByLabel('Merge into').click();
    await page.getByRole('option', { name: 'Dining' }).click();
    await merge.getByText("2 transactions will move from 'Groceries' to 'Dining'").waitFor();
    await expectNoSeriousA11yViolations(page, 'category merge dialog');
    await merge.getByRole('button', { name: 'Merge' }).click();
    await page.getByText("'Groceries' merged into 'Dining'").waitFor();
    await expect.poll(() => listed(page)).toEqual(['Dining', 'Spare']);
    const rows = data(await api.transactions.list.query({ startDate: '2024-01-01', endDate: '2024-12-31' }));
    expect(rows.map((row) => row.category)).toEqual(['Dining', 'Dining', 'Dining']);

    await page.getByRole('button', { name: 'Delete Dining' }).click();
    const remove = page.getByRole('dialog', { name: "Delete 'Dining'" });
    await remove.getByText("3 transactions will move from 'Dining'", { exact: false }).waitFor();
    await remove.getByRole('button', { name: 'Delete' }).click();
    await remove.getByRole('alert').filter({ hasText: 'Choose the category to move them to' }).waitFor();
    await remove.getByLabel('Move them to').click();
    await page.getByRole('option', { name: 'Spare' }).click();
    await remove.getByRole('button', { name: 'Delete' }).click();
    await page.getByText("Category 'Dining' deleted; what used it now uses 'Spare'").waitFor();
    await expect.poll(() => listed(page)).toEqual(['Spare']);
    await close();
  });

  it('fits a 576 px screen', async () => {
    const { page, close, user } = await open(576);
    for (const name of ['Rent', 'Dining', 'Utilities']) {
      data(await trpcClient(app.server.url, user.accessToken).categories.create.mutate({ name }));
    }
    await page.reload();
    await expect.poll(() => listed(page)).toEqual(['Dining', 'Rent', 'Utilities']);
    await screenshotAndCheckWidth(page, 'categories-576');
    await expectNoSeriousA11yViolations(page, 'categories at 576 px');
    await close();
  });
});
