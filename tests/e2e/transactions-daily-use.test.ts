/**
 * The Transactions screen in daily use, as a person sees it on a phone, a tablet and a desktop, light and dark:
 * the filters fold into one summary line once a search has run, the rows start near the top, the selection bar
 * lies over the page without moving a row, a split reads as one purchase with its parts beneath it, and the
 * keyboard gets a skip link, visible focus everywhere and category selects that save a choice, not every step.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { localIsoDate } from '../../src/shared/dates/calendar';
import { formatCents, formatSignedMoney } from '../../src/shared/money';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import {
  expectNoSeriousA11yViolations,
  savedDownload,
  screenshotAndCheckWidth,
  signedInPage,
  trpcApi,
} from './harness';
import { useBrowserAndServer } from './harness';
import { restDataClient } from '../helpers/rest-client';

const app = useBrowserAndServer();
type Scheme = 'light' | 'dark';

/** This month's days (the screen opens on this month). */
const month = localIsoDate(new Date()).slice(0, 8);
const day = (n: number) => `${month}${String(n).padStart(2, '0')}`;

/**
 * 30 purchases this month (even ones Groceries, odd ones Dining) and, on the newest day, a 90.00 shop split into
 * three parts. The page signs in at desktop width (the welcome line it waits for is hidden on a phone), then takes
 * the size asked for.
 */
async function seeded(width: number, height: number, colorScheme: Scheme = 'light') {
  const session = await signedInPage(app.browser, app.server, 1366, 900, { colorScheme });
  await session.page.setViewportSize({ width, height });
  const api = trpcApi(app.server, session.user.accessToken);
  await api.accounts.create.mutate({ name: 'Checking', type: 'checking', balance: 0 });
  const rows: TransactionDto[] = [];
  for (let i = 0; i < 30; i++) {
    rows.push(
      await api.transactions.create.mutate({
        postDate: day((i % 28) + 1),
        description: `Purchase ${i}`,
        amount: -(100 + i * 37),
        category: i % 2 === 0 ? 'Groceries' : 'Dining',
        account: 'Checking',
      }),
    );
  }
  const shop = await api.transactions.create.mutate({
    postDate: day(28),
    description: 'Big Shop',
    amount: -9000,
    account: 'Checking',
  });
  const split = await api.transactions.split.mutate({
    id: shop.id,
    splits: [
      { amount: -5000, category: 'Groceries' },
      { amount: -3000, category: 'Household' },
      { amount: -1000, category: 'Snacks' },
    ],
  });
  const rest = restDataClient(app.server.url, session.user.accessToken);
  return { ...session, api, rest, rows, shop: split.parentTransaction, parts: split.childTransactions };
}

const label = (tx: TransactionDto) =>
  `${tx.description} ${formatCents(tx.amount)} on ${tx.postDate}${tx.parentTransactionId !== null ? ' (split part)' : ''}`;
const summary = (page: Page) => page.getByRole('button', { name: /^Filters: / });
const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Selected transactions' });
const tableRows = (page: Page) => page.getByRole('table', { name: 'Transactions' }).locator('tbody tr[aria-rowindex]');
const cards = (page: Page) => page.getByRole('list', { name: 'Transactions' }).getByRole('listitem');
const found = (page: Page) => page.getByText(/^Found \d+ transactions?( \(.*\))?$/);

async function openScreen(page: Page, path = '/transactions') {
  await page.goto(`${app.server.url}${path}`);
  await found(page).waitFor();
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not rendered');
  return b;
}

async function tops(locator: Locator, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(Math.round((await box(locator.nth(i))).y));
  return out;
}

describe('the filters fold into one line and the rows start near the top', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`on a 390×844 phone (${scheme}): summary line, first row without scrolling, Back keeps it folded`, async () => {
      const { page, close } = await seeded(390, 844, scheme);
      await openScreen(page);
      await expect.poll(() => summary(page).innerText()).toContain('This month · 31 found');
      expect(await page.getByLabel('Start Date').count()).toBe(0);
      const first = await box(cards(page).first());
      expect(first.y + first.height, 'the first transaction is on screen without scrolling').toBeLessThanOrEqual(844);
      await expectNoSeriousA11yViolations(page, `folded filters on a phone (${scheme})`);
      await screenshotAndCheckWidth(page, `transactions-folded-390-${scheme}`);

      // Enter on the summary line opens the form (kept in the URL), focus in it.
      await summary(page).focus();
      await page.keyboard.press('Enter');
      await page.getByLabel('Start Date').waitFor();
      expect(new URL(page.url()).searchParams.get('filters')).toBe('open');
      expect(await page.evaluate(() => document.activeElement?.closest('form')?.getAttribute('aria-label'))).toBe(
        'Search filters',
      );
      await expectNoSeriousA11yViolations(page, `open filters on a phone (${scheme})`);
      await page.getByLabel('Categories').fill('Groc');
      await page.getByRole('listbox').getByRole('option', { name: 'Groceries' }).click();
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      // Searching folds the form again; the line names the category and the count (15 purchases and a part).
      await expect.poll(() => summary(page).innerText()).toContain('This month · Groceries · 16 found');
      expect(await page.getByLabel('Start Date').count()).toBe(0);
      expect(new URL(page.url()).searchParams.get('filters')).toBeNull();
      await expectNoSeriousA11yViolations(page, `searched on a phone (${scheme})`);

      // Opening a transaction and coming Back finds the same folded line.
      await cards(page)
        .first()
        .getByRole('button', { name: /^Open / })
        .click();
      await page.getByRole('heading', { name: 'Edit Transaction', level: 1 }).waitFor();
      await page.goBack();
      await expect.poll(() => summary(page).innerText()).toContain('This month · Groceries · 16 found');
      expect(await page.getByLabel('Start Date').count()).toBe(0);
      await close();
    });
  }

  it('on a 1366×900 desktop: many rows above the fold, Fix Split Status lives in the More actions menu, accounts link to registers', async () => {
    const { page, close } = await seeded(1366, 900);
    await openScreen(page);
    await summary(page).waitFor();
    const rows = tableRows(page);
    let visible = 0;
    for (let i = 0; i < (await rows.count()); i++) {
      const b = await box(rows.nth(i));
      if (b.y + b.height <= 900) visible += 1;
    }
    expect(visible, 'whole rows above the fold').toBeGreaterThanOrEqual(8);
    expect(await page.getByRole('button', { name: 'Fix Split Status' }).count()).toBe(0);
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Fix Split Status' }).click();
    const confirm = page.getByRole('dialog', { name: 'Fix Split Status' });
    await expectNoSeriousA11yViolations(page, 'fix split status from the menu');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    // A row's account opens its register.
    await rows.first().getByRole('link', { name: 'Checking register' }).click();
    await page.getByRole('heading', { name: 'Register: Checking', level: 1 }).waitFor();
    await close();
  });
});

describe('the selection bar shows only while rows are selected and never moves a row', () => {
  const sizes = [
    { width: 390, height: 844, place: 'bottom' },
    { width: 768, height: 1024, place: 'bottom' },
    { width: 1366, height: 900, place: 'table' },
  ] as const;
  for (const { width, height, place } of sizes) {
    it(`at ${width}×${height}: over the ${place === 'bottom' ? "viewport's bottom" : "table's top"}`, async () => {
      const { page, close, rows } = await seeded(width, height, width === 768 ? 'dark' : 'light');
      await openScreen(page);
      const list = width < 768 ? cards(page) : tableRows(page);
      const before = await tops(list, 4);
      expect(await toolbar(page).count()).toBe(0);
      // The first row's box: in view already, so checking it scrolls nothing and any move is the bar's doing.
      await list.first().getByRole('checkbox').first().check();
      await toolbar(page).getByText('1 selected').waitFor();
      expect(await tops(list, 4), 'rows stay where they were').toEqual(before);
      const bar = await box(toolbar(page));
      if (place === 'bottom') {
        expect(Math.abs(bar.y + bar.height - height)).toBeLessThanOrEqual(1);
      } else {
        const table = await box(page.getByRole('table', { name: 'Transactions' }));
        expect(Math.abs(bar.y - table.y)).toBeLessThanOrEqual(1);
        // "Select all" stays visible beside it.
        const all = await box(page.getByRole('checkbox', { name: 'Select all transactions' }));
        expect(all.x + all.width).toBeLessThanOrEqual(bar.x);
      }
      await expectNoSeriousA11yViolations(page, `selection bar at ${width}`);
      await toolbar(page).getByRole('button', { name: 'Clear Selection' }).click();
      await toolbar(page).waitFor({ state: 'detached' });
      expect(await tops(list, 4)).toEqual(before);
      if (place === 'table') {
        // On a shorter window scrolled past the table's top, the bar stays in view below the navigation bar.
        await page.setViewportSize({ width, height: 500 });
        await page.getByRole('checkbox', { name: `Select transaction ${label(rows[27])}`, exact: true }).check();
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const header = await box(page.locator('header'));
        await expect.poll(async () => Math.round((await box(toolbar(page))).y - (header.y + header.height))).toBe(0);
        const table = await box(page.getByRole('table', { name: 'Transactions' }));
        expect(table.y, 'the page scrolled past the table top').toBeLessThan(header.y + header.height);
        await expectNoSeriousA11yViolations(page, 'selection bar below the navigation bar');
      }
      await close();
    });
  }
});

describe('a split reads as one purchase', () => {
  it('shows its parts indented beneath it, folds them, gives it no category, and counts it once', async () => {
    const { page, close, shop, parts, rows } = await seeded(1366, 900);
    await openScreen(page);
    const total = rows.reduce((sum, tx) => sum + tx.amount, 0) + parts.reduce((sum, tx) => sum + tx.amount, 0);
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: /^Found/ })
          .innerText(),
      )
      .toContain(`Found 31 transactions (1 split into 3 parts)`);
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: /^Found/ })
        .innerText(),
    ).toContain(`Net: ${formatSignedMoney(total)}`);
    const ids = async () =>
      tableRows(page).evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row-id'))));
    const order = await ids();
    const at = order.indexOf(shop.id);
    expect(order.slice(at + 1, at + 4)).toEqual(parts.map((p) => p.id));
    expect(await page.getByLabel(`Category for ${label(shop)}`).count()).toBe(0);
    const text = (id: number) => page.locator(`tr[data-row-id="${id}"] td:nth-child(3) span[title]`);
    expect((await box(text(parts[0].id))).x).toBeGreaterThan((await box(text(shop.id))).x + 16);
    const toggle = page.getByRole('button', { name: /^Split into 3 parts: hide the parts of Big Shop/ });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await expectNoSeriousA11yViolations(page, 'a split with its parts');
    await toggle.click();
    // Folded: the original stays, its parts go (rows further down may come into the window instead).
    await expect.poll(async () => (await ids()).filter((id) => parts.some((p) => p.id === id))).toEqual([]);
    expect((await ids()).includes(shop.id)).toBe(true);
    const show = page.getByRole('button', { name: /^Split into 3 parts: show the parts of Big Shop/ });
    expect(await show.getAttribute('aria-expanded')).toBe('false');
    await expectNoSeriousA11yViolations(page, 'a folded split');
    await show.click();
    await expect.poll(async () => (await ids()).slice(0, at + 4)).toEqual(order.slice(0, at + 4));

    // The screen's export marks the original and its parts, and each part names a row of the file.
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const records: string[][] = parse(readFileSync(await savedDownload(file), 'utf8'), { bom: true });
    const [header, ...lines] = records;
    const col = (name: string) => header.indexOf(name);
    expect(lines.filter((r) => r[col('Split')] === 'parent').map((r) => r[col('ID')])).toEqual([String(shop.id)]);
    const partLines = lines.filter((r) => r[col('Split')] === 'part');
    expect(partLines.map((r) => r[col('Split of')])).toEqual(parts.map(() => String(shop.id)));
    await close();
  });

  it('on a phone the parts are indented cards beneath their original', async () => {
    const { page, close, shop, parts } = await seeded(390, 844, 'dark');
    await openScreen(page);
    const original = page.locator(`[data-row-id="${shop.id}"]`);
    const part = page.locator(`[data-row-id="${parts[0].id}"]`);
    await original.scrollIntoViewIfNeeded();
    expect((await box(part)).x).toBeGreaterThan((await box(original)).x + 8);
    expect((await box(part)).y).toBeGreaterThan((await box(original)).y);
    await page.getByRole('button', { name: /^Split into 3 parts: hide the parts of Big Shop/ }).waitFor();
    await expectNoSeriousA11yViolations(page, 'a split on a phone');
    await close();
  });
});

/** What has focus: its tag and accessible text. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLInputElement | null;
    if (!el) return '';
    const text = el.getAttribute('aria-label') ?? el.labels?.[0]?.innerText ?? el.innerText ?? '';
    return `${el.tagName.toLowerCase()}: ${text.replace(/\s*\*$/, '').trim()}`;
  });
}

describe('keyboard', () => {
  it('a row’s category select saves the choice on Enter or leaving it, not every arrow; Escape puts it back', async () => {
    const { page, close, rows, rest } = await seeded(1366, 900);
    let writes = 0;
    page.on('request', (request) => {
      if (request.url().includes('transactions.update')) writes += 1;
    });
    await openScreen(page);
    const target = rows[27]; // Dining, on the newest day
    const select = page.getByLabel(`Category for ${label(target)}`);
    await select.focus();
    const options = await select.evaluate((el: HTMLSelectElement) => Array.from(el.options).map((o) => o.value));
    const start = options.indexOf('Dining');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    expect(await select.inputValue()).toBe(options[start + 3]);
    await expectNoSeriousA11yViolations(page, 'a category chosen, not saved');
    expect(writes).toBe(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => writes).toBe(1);
    await expect.poll(async () => (await rest.transaction(target.id)).category).toBe(options[start + 3]);

    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Escape');
    expect(await select.inputValue()).toBe(options[start + 3]);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Tab');
    await expect.poll(() => writes).toBe(2);
    await expect.poll(async () => (await rest.transaction(target.id)).category).toBe(options[start + 2]);
    await close();
  });

  it('a suggestion chip beside an uncategorised row’s select leaves the select a readable width', async () => {
    const { page, close, api } = await seeded(1366, 900);
    const cafe = { postDate: day(27), account: 'Checking', amount: -450 };
    for (let i = 0; i < 3; i++)
      await api.transactions.create.mutate({ ...cafe, description: 'CORNER CAFE LONDON', category: 'Dining' });
    const open = await api.transactions.create.mutate({ ...cafe, amount: -460, description: 'CORNER CAFE LONDON' });
    await openScreen(page);
    const chip = page.getByRole('button', { name: `Use suggested category Dining for ${label(open)}` });
    await chip.waitFor();
    const select = await box(page.getByLabel(`Category for ${label(open)}`));
    expect(select.width, 'the select keeps its width').toBeGreaterThanOrEqual(96);
    const chipBox = await box(chip);
    expect(chipBox.x, 'the chip sits beside it').toBeGreaterThanOrEqual(select.x + select.width);
    await expectNoSeriousA11yViolations(page, 'suggestion chip beside the select');
    await close();
  });

  it('the Split dialog starts in the first amount, and Auto-fill remaining moves on to the next empty field', async () => {
    const { page, close, rows } = await seeded(1366, 900);
    await openScreen(page);
    await page.getByRole('checkbox', { name: `Select transaction ${label(rows[27])}`, exact: true }).check();
    await toolbar(page).getByRole('button', { name: 'Split Transaction' }).click();
    const dialog = page.getByRole('dialog', { name: 'Split Transaction' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[role="group"]')?.getAttribute('aria-label')))
      .toBe('Split 1');
    expect(await focused(page)).toBe('input: Amount');
    await page.keyboard.type('1');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Fuel');
    await dialog.getByRole('button', { name: 'Auto-fill remaining' }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[role="group"]')?.getAttribute('aria-label')))
      .toBe('Split 2');
    expect(await focused(page)).toBe('input: Category');
    await expectNoSeriousA11yViolations(page, 'split dialog after auto-fill');
    await page.keyboard.press('Escape');
    await close();
  });

  for (const { width, height } of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`at ${width}×${height} "Skip to results" is the first stop and the first row is at most 5 Tabs beyond`, async () => {
      const { page, close } = await seeded(width, height);
      await openScreen(page);
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('a: Skip to results');
      const link = await box(page.getByRole('link', { name: 'Skip to results' }));
      expect(link.y).toBeGreaterThanOrEqual(0);
      expect(link.y + link.height).toBeLessThanOrEqual(height);
      await expectNoSeriousA11yViolations(page, `skip link at ${width}`);
      await page.keyboard.press('Enter');
      const first = width < 768 ? cards(page).first() : tableRows(page).first();
      const firstId = await first.evaluate(
        (el) =>
          el.closest('[data-row-id]')?.getAttribute('data-row-id') ??
          el.querySelector('[data-row-id]')?.getAttribute('data-row-id'),
      );
      let presses = 0;
      const inFirstRow = () =>
        page.evaluate(
          (id) => document.activeElement?.closest('[data-row-id]')?.getAttribute('data-row-id') === id,
          firstId,
        );
      while (!(await inFirstRow()) && presses < 10) {
        await page.keyboard.press('Tab');
        presses += 1;
      }
      expect(await inFirstRow()).toBe(true);
      expect(presses).toBeLessThanOrEqual(5);
      await close();
    });
  }

  const RING: Record<Scheme, string> = { light: 'rgb(21, 101, 192)', dark: 'rgb(144, 202, 249)' };
  for (const scheme of ['light', 'dark'] as const) {
    it(`every control reached with Tab shows a 2px outline in ${scheme} mode`, async () => {
      const { page, close } = await seeded(1366, 900, scheme);
      await openScreen(page, '/transactions?filters=open');
      await page.getByLabel('Start Date').waitFor();
      const seen = new Set<string>();
      const missing: string[] = [];
      for (let i = 0; i < 45; i++) {
        await page.keyboard.press('Tab');
        const ring = await page.evaluate(() => {
          const el = document.activeElement as HTMLInputElement | null;
          if (!el || el === document.body) return null;
          // A control whose own input is invisible (MUI checkboxes) shows its ring on its visible box.
          const shown =
            getComputedStyle(el).opacity === '0' ? (el.closest<HTMLElement>('.Mui-focusVisible') ?? el) : el;
          const style = getComputedStyle(shown);
          const name = el.getAttribute('aria-label') ?? el.labels?.[0]?.innerText ?? el.textContent?.slice(0, 30) ?? '';
          return {
            what: `${el.tagName.toLowerCase()} ${name.trim()} (${el.className.toString().slice(0, 60)})`,
            style: style.outlineStyle,
            width: parseFloat(style.outlineWidth),
            color: style.outlineColor,
          };
        });
        if (!ring) continue;
        seen.add(ring.what);
        if (ring.style === 'none' || ring.width < 2 || ring.color !== RING[scheme])
          missing.push(`${ring.what}: ${ring.style} ${ring.width} ${ring.color}`);
      }
      expect(missing).toEqual([]);
      expect(seen.size).toBeGreaterThan(20);
      // A menu item opened from the keyboard.
      await page.getByRole('button', { name: 'More actions' }).focus();
      await page.keyboard.press('Enter');
      const item = page.getByRole('menuitem', { name: 'New transfer' });
      await expect.poll(() => item.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await item.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');
      expect(await item.evaluate((el) => getComputedStyle(el).outlineColor)).toBe(RING[scheme]);
      await expectNoSeriousA11yViolations(page, `menu with focus ring (${scheme})`);
      await page.keyboard.press('Escape');
      await close();
    });
  }
});
