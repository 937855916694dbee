import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { data } from '../helpers/api';
import { trpcClient } from '../helpers/trpc-client';
import { useBrowserAndServer, expectNoSeriousA11yViolations, screenshotAndCheckWidth, signedInPage } from './harness';

const app = useBrowserAndServer();

async function listed(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: 'Categories' }).getByRole('listitem').allTextContents();
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
