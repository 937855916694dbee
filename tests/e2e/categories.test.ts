import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from '../helpers/api';
import { trpc as callTrpc } from '../helpers/http';
import type { TestServer } from '../helpers/server';
import { launchBrowser, screenshotAndCheckWidth, signedInPage, startAppServer } from './harness';

/**
 * expectNoSeriousA11yViolations for this file's screens. The Main navigation bar is left
 * out: it belongs to the app shell (checked in auth-shell.test.ts), and its active link
 * (white on rgba(255,255,255,0.16) over primary: 4.18:1) is a known contrast issue of NavBar.tsx.
 */
async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `axe on ${label}`).toEqual([]);
}

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startAppServer()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function listed(page: Page): Promise<string[]> {
  return page.getByRole('list', { name: 'Categories' }).getByRole('listitem').allTextContents();
}

async function open(width = 1400) {
  const session = await signedInPage(browser, server, width);
  await session.page.goto(`${server.url}/categories`);
  await session.page.getByRole('heading', { name: 'Categories', level: 1 }).waitFor();
  return session;
}

describe('Categories', () => {
  it('adds categories (by click and by Enter) and lists them sorted by name', async () => {
    const { page, context, user, errors } = await open();
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
    const stored = data<{ name: string }[]>(await callTrpc(server.url, 'query', 'categories.list', undefined, user.accessToken));
    expect(stored.map((c) => c.name).sort()).toEqual(['Groceries', 'Zoo', 'apple']);
    await expectAccessible(page, 'categories');
    await screenshotAndCheckWidth(page, 'categories-1400');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refuses an empty name and shows the server error for a duplicate', async () => {
    const { page, context } = await open();
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
    await expectAccessible(page, 'categories with an error');
    await context.close();
  });

  it("shows 'Failed to add category' when the call never reaches the server", async () => {
    const { page, context } = await open();
    await page.route('**/trpc/categories.create**', (route) => route.abort());
    await page.getByLabel('Add a New Category').fill('Travel');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: /^Failed to add category$/ }).waitFor();
    await context.close();
  });

  it("shows 'Failed to fetch categories' when the list cannot be loaded", async () => {
    const { page, context } = await open();
    await page.route('**/trpc/categories.list**', (route) => route.abort());
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'Failed to fetch categories' }).waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('fits a 576 px screen', async () => {
    const { page, context, user } = await open(576);
    for (const name of ['Rent', 'Dining', 'Utilities']) {
      data(await callTrpc(server.url, 'mutation', 'categories.create', { name }, user.accessToken));
    }
    await page.reload();
    await expect.poll(() => listed(page)).toEqual(['Dining', 'Rent', 'Utilities']);
    await screenshotAndCheckWidth(page, 'categories-576');
    await expectAccessible(page, 'categories at 576 px');
    await context.close();
  });
});
