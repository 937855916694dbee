import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  screenshotAndCheckWidth,
  signedInPage,
  trpcApi,
  useBrowserAndServer,
  type TrpcApi,
} from './harness';

/**
 * The Plan screen, with the keyboard only: a month's income is assigned to three categories, one of them
 * overspends and is covered from another, and the next month carries what was left. On a desktop and a
 * phone (in dark mode), with axe after each step.
 */
const app = useBrowserAndServer();
const MONTH = '2024-03';

async function seed(api: TrpcApi) {
  await api.accounts.create.mutate({ name: 'Checking', type: 'checking' });
  await api.categories.create.mutate({ name: 'Salary', kind: 'income' });
  for (const name of ['Fun', 'Groceries', 'Rent']) await api.categories.create.mutate({ name });
  const add = (postDate: string, description: string, amount: number, category: string) =>
    api.transactions.create.mutate({ account: 'Checking', postDate, description, amount, category });
  await add('2024-03-01', 'Pay day', 300_000, 'Salary');
  await add('2024-03-09', 'Market', -45_000, 'Groceries');
}

const toAssign = (page: Page) => page.getByTestId('to-assign').textContent();
const available = (page: Page, category: string) =>
  page.locator(`tr[data-category="${category}"]`).getByTestId('available').textContent();
const assignedField = (page: Page, category: string) => page.getByLabel(`Assigned to ${category}`, { exact: true });

/** Types into the focused field as a person does: select what is there, type, press the key. */
async function typeAndPress(page: Page, text: string, key: string) {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
  await page.keyboard.press(key);
}

/** Presses Tab until `target` has focus (at most `limit` times): how a keyboard user reaches a button. */
async function tabTo(page: Page, target: ReturnType<Page['getByRole']>, limit = 40) {
  for (let i = 0; i < limit; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('the control never took focus with Tab');
}

describe('Plan', () => {
  for (const [label, width, height, colorScheme] of [
    ['desktop', 1366, 900, 'light'],
    ['phone', 390, 844, 'dark'],
  ] as const)
    it(`assigns, covers an overspent category and carries the rest into the next month (${label})`, async () => {
      const session = await signedInPage(
        app.browser,
        app.server,
        1400,
        900,
        { colorScheme },
        { path: `/plan/${MONTH}`, before: (user) => seed(trpcApi(app.server, user.accessToken)) },
      );
      const { page, close, errors } = session;
      await page.setViewportSize({ width, height });
      const api = trpcApi(app.server, session.user.accessToken);
      try {
        await page.getByRole('heading', { name: 'Plan', level: 1 }).waitFor();
        await page.getByText('March 2024').waitFor();
        await expect.poll(() => toAssign(page)).toBe('$3,000.00');
        expect(await available(page, 'Groceries')).toBe('−$450.00');
        await expectNoSeriousA11yViolations(page, `plan ${label}`);

        // Enter saves and moves to the next category; Tab saves and moves on.
        await assignedField(page, 'Fun').focus();
        await typeAndPress(page, '100', 'Enter');
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
          .toBe('Assigned to Groceries');
        await typeAndPress(page, '400', 'Enter');
        await typeAndPress(page, '1500', 'Tab');
        await expect.poll(() => toAssign(page)).toBe('$1,000.00');
        expect(await available(page, 'Fun')).toBe('$100.00');
        expect(await available(page, 'Rent')).toBe('$1,500.00');
        expect(await available(page, 'Groceries')).toBe('−$50.00');
        await page.locator('tr[data-category="Groceries"]').getByText('Overspent').waitFor();

        // Escape puts the amount back and changes nothing.
        await assignedField(page, 'Rent').focus();
        await typeAndPress(page, '999', 'Escape');
        expect(await assignedField(page, 'Rent').inputValue()).toBe('1,500.00');
        await expect.poll(async () => (await api.plan.get.query({ month: MONTH })).assigned).toBe(200_000);
        expect(await toAssign(page)).toBe('$1,000.00');

        // Cover the overspending from the category with the most available, from the keyboard.
        const cover = page.getByRole('button', { name: 'Cover Groceries' });
        await tabTo(page, cover);
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: 'Cover Groceries' });
        await dialog.waitFor();
        await expectNoSeriousA11yViolations(page, `plan cover dialog ${label}`);
        await dialog.getByLabel('Amount').focus();
        await page.keyboard.press('Enter');
        await page.getByText('Moved $50.00 from Rent to Groceries').waitFor();
        await expect.poll(() => available(page, 'Groceries')).toBe('$0.00');
        expect(await available(page, 'Rent')).toBe('$1,450.00');
        expect(await toAssign(page)).toBe('$1,000.00');
        await page.getByRole('list', { name: 'Moves this month' }).getByText('$50.00 from Rent to Groceries').waitFor();
        await screenshotAndCheckWidth(page, `plan-${label}`);

        // "]" goes to the next month: what was left rolls over, To Assign carries on.
        await page.getByRole('heading', { name: 'Plan', level: 1 }).focus();
        await page.keyboard.press(']');
        await page.waitForURL(/\/plan\/2024-04$/);
        await page.getByText('April 2024').waitFor();
        await expect.poll(() => available(page, 'Rent')).toBe('$1,450.00');
        expect(await available(page, 'Fun')).toBe('$100.00');
        expect(await available(page, 'Groceries')).toBe('$0.00');
        expect(await toAssign(page)).toBe('$1,000.00');
        await expectNoSeriousA11yViolations(page, `plan next month ${label}`);
        await screenshotAndCheckWidth(page, `plan-next-month-${label}`);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    });

  it('is in the navigation, opens this month, and puts a refused amount back with the reason', async () => {
    const session = await signedInPage(
      app.browser,
      app.server,
      1400,
      900,
      {},
      {
        before: async (user) => {
          const api = trpcApi(app.server, user.accessToken);
          await api.categories.create.mutate({ name: 'Travel' });
        },
      },
    );
    const { page, close } = session;
    try {
      // The navigation bar with every link fits a laptop's width, the welcome beside it.
      await page.setViewportSize({ width: 1366, height: 768 });
      expect(await page.getByTestId('welcome').isVisible()).toBe(true);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plan', exact: true }).click();
      await page.getByRole('heading', { name: 'Plan', level: 1 }).waitFor();
      await expect.poll(() => toAssign(page)).toBe('$0.00');
      await screenshotAndCheckWidth(page, 'plan-nav-1366');
      await page.route('**/trpc/plan.setAssigned**', (route) => route.abort());
      await assignedField(page, 'Travel').focus();
      await typeAndPress(page, '25', 'Enter');
      await page.getByRole('alert').filter({ hasText: 'Failed to save the assigned amount' }).waitFor();
      await expect.poll(() => toAssign(page)).toBe('$0.00');
      expect(await assignedField(page, 'Travel').inputValue()).toBe('0.00');
      // Text that is no amount stays in the field with the reason, and nothing is sent.
      await assignedField(page, 'Travel').focus();
      await typeAndPress(page, 'lots', 'Enter');
      await page
        .getByRole('alert')
        .filter({ hasText: /amount/i })
        .first()
        .waitFor();
      expect(await assignedField(page, 'Travel').getAttribute('aria-invalid')).toBe('true');
      // Another month's plan (its own URL) is still the Plan screen in the navigation bar.
      await page.goto(`${app.server.url}/plan/2024-05`);
      await page.getByRole('heading', { name: 'Plan', level: 1 }).waitFor();
      const current = page.getByRole('navigation', { name: 'Main' }).locator('[aria-current="page"]');
      await expect.poll(() => current.textContent()).toBe('Plan');
    } finally {
      await close();
    }
  });

  it("fills from targets, holds for next month, and says where last month's overspending and uncategorised money went (dark)", async () => {
    const session = await signedInPage(
      app.browser,
      app.server,
      1400,
      900,
      { colorScheme: 'dark' },
      {
        path: '/plan/2024-05',
        before: async (user) => {
          const api = trpcApi(app.server, user.accessToken);
          await api.accounts.create.mutate({ name: 'Checking', type: 'checking' });
          await api.categories.create.mutate({ name: 'Salary', kind: 'income' });
          const food = await api.categories.create.mutate({ name: 'Food' });
          await api.categories.update.mutate({ id: food.id, data: { target: { type: 'monthly', amount: 20_000 } } });
          await api.categories.create.mutate({ name: 'Fun' });
          const add = (postDate: string, description: string, amount: number, category?: string) =>
            api.transactions.create.mutate({ account: 'Checking', postDate, description, amount, category });
          await add('2024-04-20', 'Cinema', -5_000, 'Fun');
          await add('2024-05-01', 'Pay day', 100_000, 'Salary');
          await add('2024-05-03', 'Mystery', -700);
          // A hidden category stays in the plan of a month it has money in, marked.
          await add('2024-05-04', 'Old habit', -300, 'Old');
          const old = (await api.categories.list.query()).find((c) => c.name === 'Old');
          await api.categories.update.mutate({ id: old!.id, data: { hidden: true } });
        },
      },
    );
    const { page, close, errors } = session;
    try {
      await page.setViewportSize({ width: 1366, height: 900 });
      await expect.poll(() => toAssign(page)).toBe('$950.00');
      await page.getByText('−$50.00 overspent in April 2024 taken from To Assign (Fun −$50.00)').waitFor();
      await page.getByText('Overspent last month: −$50.00').waitFor();
      await page.getByText('1 uncategorised transaction (−$7.00)', { exact: false }).waitFor();
      await page
        .locator('tr[data-category="Food"]')
        .getByText('Underfunded: needs $200.00 more', { exact: false })
        .waitFor();
      await page
        .locator('tr[data-category="Old"]')
        .getByText('(hidden; shown while it has money this month)')
        .waitFor();
      await expectNoSeriousA11yViolations(page, 'plan with a target and last month overspent (dark)');

      await page.getByRole('button', { name: 'Fill…' }).focus();
      await page.keyboard.press('Enter');
      const fill = page.getByRole('dialog', { name: 'Fill assigned amounts' });
      await fill.waitFor();
      await fill.getByRole('button', { name: 'Fill', exact: true }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => toAssign(page)).toBe('$750.00');
      expect(await assignedField(page, 'Food').inputValue()).toBe('200.00');
      await page.locator('tr[data-category="Food"]').getByText('Target met', { exact: false }).waitFor();

      await page.getByRole('button', { name: 'Hold for next month' }).focus();
      await page.keyboard.press('Enter');
      const hold = page.getByRole('dialog', { name: 'Hold for next month' });
      await hold.getByLabel('Amount to hold').waitFor();
      await typeAndPress(page, '100', 'Enter');
      await page.getByText('Holding $100.00 for next month').waitFor();
      await expect.poll(() => toAssign(page)).toBe('$650.00');
      await page.getByText('Held for next month: −$100.00').waitFor();
      await screenshotAndCheckWidth(page, 'plan-fill-hold-dark');

      await page.getByRole('link', { name: /^Next month/ }).click();
      await page.waitForURL(/\/plan\/2024-06$/);
      // May's To Assign and hold come over, less what the hidden category overspent in May.
      await expect.poll(() => toAssign(page)).toBe('$747.00');
      expect(await available(page, 'Food')).toBe('$200.00');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows, takes and reads amounts in the home currency (yen: no decimals)', async () => {
    const session = await signedInPage(
      app.browser,
      app.server,
      1400,
      900,
      {},
      {
        path: '/plan/2024-03',
        before: async (user) => {
          const api = trpcApi(app.server, user.accessToken);
          await api.auth.setHomeCurrency.mutate({ homeCurrency: 'JPY' });
          await api.accounts.create.mutate({ name: 'Wallet', type: 'cash', currency: 'JPY' });
          await api.categories.create.mutate({ name: 'Salary', kind: 'income' });
          await api.categories.create.mutate({ name: 'Food' });
          await api.transactions.create.mutate({
            account: 'Wallet',
            postDate: '2024-03-01',
            description: 'Pay day',
            amount: 100_000,
            category: 'Salary',
          });
        },
      },
    );
    const { page, close, errors } = session;
    try {
      await expect.poll(() => toAssign(page)).toBe('¥100,000');
      await assignedField(page, 'Food').focus();
      expect(await assignedField(page, 'Food').inputValue()).toBe('0');
      await typeAndPress(page, '2500', 'Enter');
      await expect.poll(() => toAssign(page)).toBe('¥97,500');
      expect(await available(page, 'Food')).toBe('¥2,500');
      await expect
        .poll(
          async () =>
            (await trpcApi(app.server, session.user.accessToken).plan.get.query({ month: '2024-03' })).assigned,
        )
        .toBe(2_500);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
