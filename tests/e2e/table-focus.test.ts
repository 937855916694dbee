/**
 * Every click lands where it was aimed: selecting rows
 * never moves them, counts agree, focus follows navigation, phones get cards, and the search
 * opens on this month with date presets.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { localIsoDate } from '../../src/shared/dates/calendar';
import { presetRange } from '../../src/shared/dates/presets';
import { formatCents } from '../../src/shared/money';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import {
  expectNoSeriousA11yViolations,
  screenshotAndCheckWidth,
  signedInPage,
  trpcApi,
  useBrowserAndServer,
} from './harness';

const app = useBrowserAndServer();

const SEED = [
  { postDate: '2024-01-05', description: 'Coffee Shop', amount: -450, category: 'Dining' },
  { postDate: '2024-01-10', description: 'Grocery Store', amount: -8235, category: 'Groceries' },
  { postDate: '2024-01-15', description: 'Paycheck', amount: 250000, category: 'Salary' },
  {
    postDate: '2024-01-20',
    description: 'A very long description of a purchase at the hardware store downtown',
    amount: -123456,
    category: 'Home',
  },
  { postDate: '2024-01-25', description: 'Electric bill', amount: -6000 },
];

async function seeded(width = 1400, height = 900) {
  const session = await signedInPage(app.browser, app.server, width, height);
  const api = trpcApi(app.server, session.user.accessToken);
  await api.accounts.create.mutate({ name: 'Checking', type: 'checking', balance: 0 });
  const rows: Record<string, TransactionDto> = {};
  for (const tx of SEED) rows[tx.description] = await api.transactions.create.mutate({ ...tx, account: 'Checking' });
  return { ...session, api, rows };
}

const label = (tx: TransactionDto) =>
  `${tx.description} ${formatCents(tx.amount)} on ${tx.postDate}${tx.parentTransactionId !== null ? ' (split part)' : ''}`;
const checkbox = (page: Page, tx: TransactionDto) =>
  page.getByRole('checkbox', { name: `Select transaction ${label(tx)}`, exact: true });
const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Selected transactions' });

async function searchJanuary(page: Page, found = 5) {
  // The filter form open (it folds into a summary line once a search has run).
  await page.goto(`${app.server.url}/transactions?filters=open`);
  await page.getByRole('heading', { name: 'Transaction Search', level: 1 }).waitFor();
  await page.getByLabel('Start Date').fill('2024-01-01');
  await page.getByLabel('End Date').fill('2024-01-31');
  await page.getByText(`Found ${found} transactions`).waitFor();
}

/** What has focus: its role-ish tag and accessible text. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    const name = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.innerText ?? el.innerText;
    return `${el.tagName.toLowerCase()}: ${name.trim()}`;
  });
}

describe('selecting rows', () => {
  it('three clicks on three checkboxes, where they were, select three rows', async () => {
    const { page, close } = await seeded();
    await searchJanuary(page);
    const boxes = page
      .getByRole('table', { name: 'Transactions' })
      .locator('tbody tr[aria-rowindex] input[type="checkbox"]');
    const points = [];
    for (let i = 0; i < 3; i++) {
      const box = (await boxes.nth(i).boundingBox())!;
      points.push({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
    }
    for (const point of points) await page.mouse.click(point.x, point.y);
    await toolbar(page).getByText('3 selected').waitFor();
    for (let i = 0; i < 3; i++) expect(await boxes.nth(i).isChecked()).toBe(true);
    expect(await boxes.nth(3).isChecked()).toBe(false);
    // Clearing moves nothing either: the first row is where it was.
    await toolbar(page).getByRole('button', { name: 'Clear Selection' }).click();
    const after = (await boxes.nth(0).boundingBox())!;
    expect(Math.abs(after.y + after.height / 2 - points[0].y)).toBeLessThan(1);
    await close();
  });
});

describe('focus and the keyboard', () => {
  it('focus goes to the heading on navigation, back to the edited row with its selection, and to Select all after clearing', async () => {
    const { page, close, rows } = await seeded();
    await searchJanuary(page);
    await checkbox(page, rows['Grocery Store']).check();
    await toolbar(page).getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
    await expect.poll(() => focused(page)).toBe('h1: Edit Transaction');

    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByText('Found 5 transactions').waitFor();
    await expect.poll(() => focused(page)).toBe(`input: Select transaction ${label(rows['Grocery Store'])}`);
    await toolbar(page).getByText('1 selected').waitFor();
    expect(await checkbox(page, rows['Grocery Store']).isChecked()).toBe(true);

    // The browser's own Back works alike, and a wider selection is kept too.
    await checkbox(page, rows['Paycheck']).check();
    await toolbar(page).getByText('2 selected').waitFor();
    await checkbox(page, rows['Paycheck']).uncheck();
    await toolbar(page).getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
    await page.goBack();
    await expect.poll(() => focused(page)).toBe(`input: Select transaction ${label(rows['Grocery Store'])}`);
    await toolbar(page).getByText('1 selected').waitFor();

    await toolbar(page).getByRole('button', { name: 'Clear Selection' }).click();
    await expect.poll(() => focused(page)).toBe('input: Select all transactions');

    // The navigation bar's links put focus on the new page's heading too.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Categories' }).click();
    await expect.poll(() => focused(page)).toBe('h1: Categories');
    await close();
  });

  it("Back from a budget's table returns to the same budget, row and selection", async () => {
    const { page, close, api, rows } = await seeded();
    await api.budgets.save.mutate({ name: 'January', startDate: '2024-01-01', endDate: '2024-01-31', lineItems: [] });
    await page.goto(`${app.server.url}/`);
    await page.getByRole('button', { name: 'Select budget January' }).click();
    await checkbox(page, rows['Paycheck']).check();
    await toolbar(page).getByRole('button', { name: 'Edit Transaction', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'Selected Budget' }).waitFor();
    await expect.poll(() => focused(page)).toBe(`input: Select transaction ${label(rows['Paycheck'])}`);
    await toolbar(page).getByText('1 selected').waitFor();
    await close();
  });

  it('a skip link comes first, and a row costs one Tab stop (arrows move within it)', async () => {
    const { page, close, rows } = await seeded();
    await searchJanuary(page);
    await page.reload();
    await page.getByText('Found 5 transactions').waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a: Skip to results');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a: Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('h1: Transaction Search');

    // Rows are sorted newest first: Electric bill, hardware store, Paycheck, ...
    await checkbox(page, rows['Electric bill']).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe(
      `input: Select transaction ${label(rows['A very long description of a purchase at the hardware store downtown'])}`,
    );
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe(`input: Select transaction ${label(rows['Paycheck'])}`);
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toBe(`select: Category for ${label(rows['Paycheck'])}`);
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toBe(`select: Type for ${label(rows['Paycheck'])}`);
    // The arrows moved focus and changed no value.
    expect(await page.getByLabel(`Type for ${label(rows['Paycheck'])}`).inputValue()).toBe('credit');
    await page.keyboard.press('ArrowLeft');
    expect(await focused(page)).toBe(`select: Category for ${label(rows['Paycheck'])}`);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe(`input: Select transaction ${label(rows['Grocery Store'])}`);
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe(`input: Select transaction ${label(rows['Paycheck'])}`);
    await close();
  });
});

describe('phones', () => {
  it.each([390, 576])(
    'below 768 px (%i px) each transaction is a card, nothing cut, same selection and actions',
    async (width) => {
      // Signed in at 576 px (the login helper waits for the welcome text, hidden on the smallest screens).
      const { page, close, api, rows } = await seeded(576, 844);
      await page.setViewportSize({ width, height: 844 });
      await searchJanuary(page);
      expect(await page.getByRole('table', { name: 'Transactions' }).count()).toBe(0);
      const list = page.getByRole('list', { name: 'Transactions' });
      expect(await list.getByRole('listitem').count()).toBe(5);
      const long = list.getByRole('listitem').filter({ hasText: 'hardware store' });
      expect(await long.getByText('−$1,234.56', { exact: true }).isVisible()).toBe(true);
      expect(
        await long.getByText('A very long description of a purchase at the hardware store downtown').isVisible(),
      ).toBe(true);
      expect(await long.getByText('2024-01-20 · Home · debit').isVisible()).toBe(true);
      expect(await long.getByRole('link', { name: 'Checking register' }).isVisible()).toBe(true);
      // Nothing is cut: every card's text fits its box.
      const cut = await list.evaluate(
        (el) =>
          [...el.querySelectorAll('p, span, div')].filter(
            (node) => (node as HTMLElement).scrollWidth > (node as HTMLElement).clientWidth + 1,
          ).length,
      );
      expect(cut).toBe(0);

      await checkbox(page, rows['Coffee Shop']).check();
      await checkbox(page, rows['Electric bill']).check();
      await toolbar(page).getByText('2 selected').waitFor();
      await screenshotAndCheckWidth(page, `transactions-cards-${width}`);
      await expectNoSeriousA11yViolations(page, `transaction cards at ${width} px`);
      await toolbar(page).getByRole('button', { name: 'Bulk Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Bulk Edit 2 transactions' });
      await dialog.getByLabel('Category').fill('Utilities');
      await dialog.getByRole('button', { name: 'Update' }).click();
      await dialog.waitFor({ state: 'detached' });
      const stored = await api.transactions.list.query({ startDate: '2024-01-01', endDate: '2024-01-31' });
      expect(
        stored
          .filter((tx) => tx.category === 'Utilities')
          .map((tx) => tx.description)
          .sort(),
      ).toEqual(['Coffee Shop', 'Electric bill']);

      // Tap a card to edit it; Back returns to it with the selection kept.
      await list.getByRole('button', { name: `Open ${label(rows['Paycheck'])}` }).click();
      await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
      expect(await page.getByLabel('Description').inputValue()).toBe('Paycheck');
      await page.getByRole('button', { name: 'Back' }).click();
      await expect.poll(() => focused(page)).toBe(`input: Select transaction ${label(rows['Paycheck'])}`);
      await toolbar(page).getByText('2 selected').waitFor();

      // Sorting is there too.
      await page.getByRole('combobox', { name: 'Sort by' }).click();
      await page.getByRole('listbox').getByRole('option', { name: 'Amount' }).click();
      const first = await list.getByRole('listitem').first().textContent();
      expect(first).toContain('Paycheck');
      // Re-ordered cards keep their own heights: none overlaps the next.
      await expect
        .poll(() =>
          list.getByRole('listitem').evaluateAll((items) =>
            items
              .map((item) => item.getBoundingClientRect())
              .sort((a, b) => a.top - b.top)
              .every((box, i, all) => i === 0 || all[i - 1].bottom <= box.top + 0.5),
          ),
        )
        .toBe(true);
      // A card's account opens its register.
      await list.getByRole('link', { name: 'Checking register' }).first().click();
      await page.getByRole('heading', { name: 'Register: Checking', level: 1 }).waitFor();
      await close();
    },
  );
});

describe('finding transactions', () => {
  it('opens on this month with its transactions, and offers date presets', async () => {
    const today = localIsoDate(new Date());
    const thisMonth = presetRange('This month', today);
    const lastMonth = presetRange('Last month', today);
    const { page, close, api } = await seeded();
    await api.transactions.create.mutate({ postDate: today, description: 'Bought today', amount: -1999 });
    await api.transactions.create.mutate({
      postDate: lastMonth.startDate,
      description: 'Last month rent',
      amount: -90000,
    });
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Transactions', exact: true })
      .click();
    await page.getByText('Found 1 transaction').waitFor();
    // The filters are folded into their summary line; it opens them.
    await page.getByRole('button', { name: /^Filters: This month · 1 found/ }).click();
    expect(await page.getByLabel('Start Date').inputValue()).toBe(thisMonth.startDate);
    expect(await page.getByLabel('End Date').inputValue()).toBe(thisMonth.endDate);
    expect(await page.getByRole('table', { name: 'Transactions' }).getByText('Bought today').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'This month' }).getAttribute('aria-pressed')).toBe('true');

    await page.getByRole('button', { name: 'Last month', exact: true }).click();
    await page.getByRole('table', { name: 'Transactions' }).getByText('Last month rent').waitFor();
    expect(await page.getByLabel('Start Date').inputValue()).toBe(lastMonth.startDate);
    expect(await page.getByLabel('End Date').inputValue()).toBe(lastMonth.endDate);
    expect(await page.getByRole('button', { name: 'Last month', exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await page.getByRole('button', { name: 'Last year' }).click();
    await expect.poll(() => page.getByLabel('Start Date').inputValue()).toBe(presetRange('Last year', today).startDate);
    await page.getByRole('button', { name: 'This year' }).click();
    await expect.poll(() => page.getByLabel('End Date').inputValue()).toBe(presetRange('This year', today).endDate);
    await page.getByRole('button', { name: 'Last 3 months' }).click();
    await expect
      .poll(() => page.getByLabel('Start Date').inputValue())
      .toBe(presetRange('Last 3 months', today).startDate);
    await page.getByText('Found 2 transactions').waitFor();
    await close();
  });
});

describe('counts that agree', () => {
  it("the budget's table says why it shows more rows than the overview counts", async () => {
    const { page, close, api, rows } = await seeded();
    await api.transactions.split.mutate({
      id: rows['Grocery Store'].id,
      splits: [
        { amount: -5000, category: 'Groceries' },
        { amount: -3235, category: 'Home' },
      ],
    });
    await api.budgets.save.mutate({ name: 'January', startDate: '2024-01-01', endDate: '2024-01-31', lineItems: [] });
    await page.goto(`${app.server.url}/`);
    await page.getByRole('button', { name: 'Select budget January' }).click();
    await page.getByText('Total (6 transactions)').waitFor();
    await page
      .getByText(
        'Showing all 7 rows: 6 transactions counted in the totals and 1 split original (their parts are counted instead)',
      )
      .waitFor();

    // The search counts the split once and says what it holds; its total counts the parts, not the original.
    await searchJanuary(page, 5);
    await page.getByText('Found 5 transactions (1 split into 2 parts)', { exact: true }).waitFor();
    await page.getByText('(split parts counted, never their originals)').waitFor();
    await close();
  });
});

describe('rows scrolled into the window', () => {
  /** SEED plus 300 rows in January (more than the virtual window holds), searched. */
  async function seededMany() {
    const session = await seeded();
    const lines = ['Date,Description,Amount,Category'];
    for (let i = 0; i < 300; i++)
      lines.push(
        `2024-01-${String((i % 28) + 1).padStart(2, '0')},Shop ${i},-${i + 1}.00,${i % 4 === 0 ? '' : `Cat ${i % 3}`}`,
      );
    const body = new FormData();
    body.append('file', new Blob([lines.join('\n')]), 'many.csv');
    body.append('account', 'Checking');
    body.append('transactionType', 'debit');
    const res = await fetch(`${app.server.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.user.accessToken}` },
      body,
    });
    expect(res.status).toBe(201);
    await searchJanuary(session.page, 305);
    return session;
  }

  it('Tab and Shift+Tab walk row by row past the edge of the rendered window', async () => {
    const { page, context } = await seededMany();
    const rendered = page.getByRole('table', { name: 'Transactions' }).locator('tbody tr[data-row-id]');
    const renderedCount = await rendered.count();
    expect(renderedCount).toBeLessThan(40);
    const rowOfFocus = () =>
      page.evaluate(() => Number(document.activeElement?.closest('tr')?.getAttribute('aria-rowindex') ?? -1));
    // A person's key presses are a rendered frame apart at least (key repeat is ~30 a second): the list renders the
    // rows the last focus scrolled to before the next press. Pressed faster than frames render, on a loaded machine
    // Tab could outrun the overscan.
    const nextFrame = () =>
      page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await rendered.first().getByRole('checkbox').focus();
    expect(await rowOfFocus()).toBe(2);
    // Twice as many rows as were rendered: each Tab lands on the next row's checkbox.
    for (let n = 3; n < 3 + 2 * renderedCount; n++) {
      await page.keyboard.press('Tab');
      expect(await rowOfFocus()).toBe(n);
      await nextFrame();
    }
    const last = await rowOfFocus();
    for (let n = last - 1; n > last - 2 * renderedCount; n--) {
      await page.keyboard.press('Shift+Tab');
      expect(await rowOfFocus()).toBe(n);
      await nextFrame();
    }
    await context.close();
  });

  it("a row mounted while the list scrolls holds each select's current option alone; focus, the pointer or the scroll stopping give it every option", async () => {
    const { page, context, api } = await seededMany();
    const categoryCount = (await api.categories.list.query()).length;

    // Every select's option count, value and shown text, row by row.
    const selectsOf = () =>
      page.getByRole('table', { name: 'Transactions' }).evaluate((table) =>
        [...table.querySelectorAll<HTMLTableRowElement>('tbody tr[data-row-id]')].map((row) =>
          [...row.querySelectorAll('select')].map((select) => ({
            options: select.options.length,
            value: select.value,
            text: select.selectedOptions[0]?.text ?? '',
          })),
        ),
      );
    const full = [1 + categoryCount, 4];
    // Rendered at rest: the full lists.
    expect((await selectsOf()).every((row) => row.map((select) => select.options).join() === full.join())).toBe(true);

    // One scroll far down; read in the scroll event itself, after the table's own listener rendered the new rows (no
    // timer can run in between, so the scrolling has not stopped yet).
    const seen = await page.getByRole('table', { name: 'Transactions' }).evaluate(
      (table) =>
        new Promise<{
          light: { options: number; value: string; text: string }[][];
          focused: number;
          hovered: number;
          stayed: number;
        }>((resolve) => {
          const scroller = table.parentElement!;
          const rows = () => [...table.querySelectorAll<HTMLTableRowElement>('tbody tr[data-row-id]')];
          scroller.addEventListener(
            'scroll',
            () => {
              const light = rows().map((row) =>
                [...row.querySelectorAll('select')].map((select) => ({
                  options: select.options.length,
                  value: select.value,
                  text: select.selectedOptions[0]?.text ?? '',
                })),
              );
              const [first, second, third] = rows()
                .slice(2, 5)
                .map((row) => row.querySelectorAll('select'));
              first[0].focus();
              // What the browser sends when the pointer moves onto the select (React's onPointerEnter listens for it).
              second[1].dispatchEvent(new PointerEvent('pointerover', { bubbles: true, pointerType: 'mouse' }));
              // React renders those in a microtask: still inside this task, before any timer.
              queueMicrotask(() =>
                queueMicrotask(() =>
                  resolve({
                    light,
                    focused: first[0].options.length,
                    hovered: second[1].options.length,
                    stayed: third[0].options.length,
                  }),
                ),
              );
            },
            { once: true },
          );
          scroller.scrollTop = 53 * 150;
        }),
    );
    expect(seen.light.length).toBeGreaterThan(5);
    expect(seen.light.every((row) => row.map((select) => select.options).join() === '1,1')).toBe(true);
    // The same value and text as the full select would show.
    expect(
      seen.light.flat().every((select) => select.text === (select.value === '' ? 'Uncategorized' : select.value)),
    ).toBe(true);
    expect(seen.focused).toBe(full[0]);
    expect(seen.hovered).toBe(full[1]);
    expect(seen.stayed).toBe(1);
    // The focused select keeps focus, and once the scrolling stops every row has every option.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(
      /^Category for Shop \d+ /,
    );
    await expect
      .poll(async () => (await selectsOf()).every((row) => row.map((select) => select.options).join() === full.join()))
      .toBe(true);
    await context.close();
  });
});
