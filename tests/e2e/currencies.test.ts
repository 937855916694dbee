import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  screenshotAndCheckWidth,
  signedInPage,
  trpcApi,
  type SignedInOpen,
  useBrowserAndServer,
} from './harness';

/**
 * Accounts in three currencies: each row in its account's currency with what was paid abroad beside
 * it, the search's net converted into the home currency with the rows that have no rate counted and
 * a link to the Rates screen, rates imported from a file and added by hand there, the currency picker
 * of the account dialog (refused once an account holds transactions), the home currency on Profile,
 * a rule's amount condition in a currency of its own, a transfer across currencies an import offers,
 * and the home currency a person from before currencies is asked to choose once.
 */
const app = useBrowserAndServer();

async function seed(token: string, year: number): Promise<void> {
  const api = trpcApi(app.server, token);
  await api.auth.setHomeCurrency.mutate({ homeCurrency: 'EUR' });
  await api.accounts.create.mutate({ name: 'Euro', type: 'checking', currency: 'EUR' });
  await api.accounts.create.mutate({ name: 'Pounds', type: 'credit', currency: 'GBP' });
  await api.accounts.create.mutate({ name: 'Yen', type: 'cash', currency: 'JPY' });
  const rows = [
    { postDate: `${year}-01-05`, description: 'Groceries', amount: -2000, account: 'Euro' },
    {
      postDate: `${year}-01-05`,
      description: 'Hotel abroad',
      amount: -1000,
      account: 'Pounds',
      originalAmount: -1299,
      originalCurrency: 'USD',
    },
    { postDate: `${year}-01-05`, description: 'Ramen', amount: -1500, account: 'Yen' },
    { postDate: `${year}-02-20`, description: 'Tea', amount: -500, account: 'Yen' },
  ];
  for (const row of rows) await api.transactions.create.mutate(row);
}

/** Signs in at desktop size (the harness waits for the desktop greeting), then takes the size under test. */
async function sessionAt(width: number, height: number, open: SignedInOpen, options: BrowserContextOptions = {}) {
  const session = await signedInPage(app.browser, app.server, 1400, 900, options, open);
  await session.page.setViewportSize({ width, height });
  return session;
}

/** Opens a screen from the navigation (in the bar, or under its menu on narrow screens). */
async function openScreen(page: Page, url: string, heading: string) {
  await page.goto(`${app.server.url}${url}`);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

/** Rates belong to the whole server: each run dates its rows in a year of its own, which has no rates yet. */
const search = (year: number) => `/transactions?startDate=${year}-01-01&endDate=${year}-02-28`;

async function banner(page: Page): Promise<string> {
  return page.getByRole('status').filter({ hasText: 'Found' }).innerText();
}

describe('accounts in several currencies', () => {
  it.each([
    [1366, 900],
    [390, 844],
  ])('shows amounts in their currencies, converted totals and rates at %ipx', async (width, height) => {
    const year = width > 600 ? 2026 : 2027;
    const { close, page, errors } = await sessionAt(width, height, {
      before: (user) => seed(user.accessToken, year),
    });
    try {
      await openScreen(page, search(year), 'Transaction Search');
      // Each row in its account's currency: yen without decimals; the original amount beside it.
      await page.getByText('−¥1,500').first().waitFor();
      await page.getByText('−£10.00').first().waitFor();
      await page.getByText('Paid −$12.99').first().waitFor();
      // No rates yet: only the euro row counts, and the three others are named as left out.
      await expect.poll(() => banner(page)).toContain('Net: −€20.00');
      await page.getByTestId('converted-note').getByText('Amounts in EUR').waitFor();
      const missing = page.getByTestId('no-rate-note');
      await missing.getByText('3 transactions left out: no rate').waitFor();
      await expectNoSeriousA11yViolations(page, `converted search ${width}`);
      await screenshotAndCheckWidth(page, `currencies-search-${width}`);

      // The note's link opens the Rates screen; a rates file fills January.
      await missing.getByRole('link', { name: 'Add or import rates' }).click();
      await page.getByRole('heading', { name: 'Exchange rates', level: 1 }).waitFor();
      await page.getByLabel('Rates file').setInputFiles({
        name: 'rates.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`date,base,quote,rate\n${year}-01-05,EUR,GBP,0.85\n${year}-01-05,EUR,JPY,160\n`),
      });
      await page.getByText(`Imported 2 rates from ${year}-01-05 to ${year}-01-05`).waitFor();
      const pairs = page.getByRole('table', { name: 'Stored rates' });
      await pairs.getByText('EUR → GBP').waitFor();
      await pairs.getByText('EUR → JPY').waitFor();
      await expectNoSeriousA11yViolations(page, `rates ${width}`);
      await screenshotAndCheckWidth(page, `currencies-rates-${width}`);

      // February's yen row needs a rate of its own: added by hand.
      await page.getByRole('button', { name: 'Add a rate' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a rate' });
      await dialog.getByLabel('Date').fill(`${year}-02-20`);
      await dialog.getByRole('combobox', { name: 'Quote' }).click();
      await page.getByRole('option', { name: /^JPY/ }).click();
      await dialog.getByRole('textbox', { name: /^Rate/ }).fill('-1');
      await dialog.getByRole('button', { name: 'Save rate' }).click();
      await dialog.getByText("The rate '-1' is not a positive decimal number").waitFor();
      await expectNoSeriousA11yViolations(page, `rate dialog ${width}`);
      await dialog.getByRole('textbox', { name: /^Rate/ }).fill('160');
      await dialog.getByRole('button', { name: 'Save rate' }).click();
      await page.getByText(`Saved: 1 EUR = 160 JPY on ${year}-02-20`).waitFor();
      await expect
        .poll(() => pairs.getByRole('row').filter({ hasText: 'EUR → JPY' }).innerText())
        .toContain(`${year}-02-20`);

      // Every row converted at its own date, half to even: −20.00 − 11.76 − 9.38 − 3.12.
      await openScreen(page, search(year), 'Transaction Search');
      await expect.poll(() => banner(page)).toContain('Net: −€44.26');
      expect(await page.getByTestId('no-rate-note').count()).toBe(0);

      // The currency of an account that holds transactions cannot change; a new account takes any.
      await openScreen(page, '/accounts', 'Accounts');
      await page.getByRole('button', { name: 'Edit Pounds' }).click();
      const edit = page.getByRole('dialog', { name: "Edit account 'Pounds'" });
      await edit.getByRole('combobox', { name: 'Currency' }).click();
      await page.getByRole('option', { name: /^USD/ }).click();
      await edit.getByRole('button', { name: 'Save account' }).click();
      await edit.getByRole('alert').getByText("Account 'Pounds' has 1 transaction in GBP").waitFor();
      await expectNoSeriousA11yViolations(page, `refused currency ${width}`);
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'New account' }).click();
      const created = page.getByRole('dialog', { name: 'New account' });
      await created.getByLabel('Name').fill('Francs');
      await created.getByRole('combobox', { name: 'Type' }).click();
      await page.getByRole('option', { name: 'savings' }).click();
      await created.getByRole('combobox', { name: 'Currency' }).click();
      await page.getByRole('option', { name: /^CHF/ }).click();
      await created.getByLabel('Opening balance').fill('250');
      await created.getByRole('button', { name: 'Create account' }).click();
      await page.getByText("Account 'Francs' created").waitFor();
      const table = page.getByRole('table', { name: 'Accounts' });
      await table
        .getByText(/CHF\s250\.00/)
        .first()
        .waitFor();
      await table.getByText('In EUR, converted at today’s rates', { exact: false }).waitFor();

      // The home currency on Profile: the search's net follows it.
      await openScreen(page, '/profile', 'Update Profile');
      const home = page.getByRole('region', { name: 'Home currency' });
      await home.getByRole('combobox', { name: 'Home currency' }).click();
      await page.getByRole('option', { name: /^GBP/ }).click();
      await home.getByRole('button', { name: 'Save home currency' }).click();
      await home.getByRole('status').getByText('now shown in GBP').waitFor();
      await expectNoSeriousA11yViolations(page, `home currency ${width}`);
      await openScreen(page, search(year), 'Transaction Search');
      await expect.poll(() => banner(page)).toMatch(/Net: −£/);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it.each([
    [1366, 900],
    [390, 844],
  ])('a rule amount is typed and counted in its own currency at %ipx', async (width, height) => {
    const { close, page, errors } = await sessionAt(width, height, {
      before: (user) => seed(user.accessToken, 2028),
    });
    try {
      await openScreen(page, '/rules', 'Rules');
      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New rule' });
      await dialog.getByLabel('Rule name').fill('Big yen');
      const choose = async (label: string, option: string) => {
        await dialog.getByRole('combobox', { name: new RegExp(`^${label}(\\s|$)`) }).click();
        await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
      };
      await choose('Condition 1 field', 'Amount');
      await choose('Condition 1 operator', 'is less than');
      const count = () => dialog.getByTestId('rule-match-count').textContent();
      // In the home currency, -400 is 400 euros: no row spent that much.
      await dialog.getByLabel('Condition 1 value').fill('-400');
      await expect.poll(count).toMatch(/^Matches 0 of your 4 transactions/);
      // In yen, -400 is 400 yen: the two yen rows, and neither the euro nor the pound row.
      await choose('Condition 1 currency', 'JPY');
      await expect.poll(count).toMatch(/^Matches 2 of your 4 transactions/);
      await expectNoSeriousA11yViolations(page, `rule in yen ${width}`);
      await dialog.getByLabel('Set category').fill('Big');
      await page.getByRole('option', { name: 'Create category "Big"' }).click();
      await dialog.getByRole('button', { name: 'Save rule' }).click();
      await page.getByText("Rule 'Big yen' saved").waitFor();
      await page.getByRole('list', { name: 'Rules' }).getByText('If Amount is less than −¥400').waitFor();
      await screenshotAndCheckWidth(page, `currencies-rule-${width}`);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it.each([
    [1366, 900],
    [390, 844],
  ])(
    'an import offers a transfer across currencies, Accept links it, and so does the row’s picker at %ipx',
    async (width, height) => {
      const year = width > 600 ? 2029 : 2030;
      const { close, page, errors, user } = await sessionAt(width, height, {
        path: '/transactions',
        before: async (user) => {
          const api = trpcApi(app.server, user.accessToken);
          await api.auth.setHomeCurrency.mutate({ homeCurrency: 'EUR' });
          await api.accounts.create.mutate({ name: 'Euro', type: 'checking', currency: 'EUR' });
          await api.accounts.create.mutate({ name: 'Pounds', type: 'checking', currency: 'GBP' });
          await api.rates.put.mutate({ date: `${year}-04-02`, base: 'EUR', quote: 'GBP', rate: '0.852' });
          await api.transactions.create.mutate({
            postDate: `${year}-04-03`,
            description: 'INCOMING',
            amount: 8520,
            account: 'Pounds',
          });
          const form = new FormData();
          form.append('account', 'Euro');
          form.append('file', new Blob([`Date,Description,Amount\n${year}-04-02,SAVINGS MOVE,-100.00\n`]), 'euro.csv');
          const res = await fetch(`${app.server.url}/api/upload`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${user.accessToken}` },
            body: form,
          });
          expect(res.status).toBe(201);
        },
      });
      try {
        const panel = page.getByRole('region', { name: 'Transfers to confirm' });
        await panel.getByText('1 waiting').waitFor();
        await panel.getByText("the amounts imply 1 EUR = 0.852 GBP, the day's rate").waitFor();
        await expectNoSeriousA11yViolations(page, `offer across currencies ${width}`);
        await screenshotAndCheckWidth(page, `currencies-transfer-offer-${width}`);
        await panel
          .getByRole('button', { name: /^Accept transfer: €100\.00 from Euro .* to Pounds .* as £85\.20$/ })
          .click();
        await panel.getByText(/^Linked: €100\.00 from Euro/).waitFor();
        const api = trpcApi(app.server, user.accessToken);
        const rows = await api.transactions.list.query({ startDate: `${year}-04-01`, endDate: `${year}-04-30` });
        const moved = rows.find((row) => row.description === 'SAVINGS MOVE');
        expect(moved?.transferCounterpartAccount).toBe('Pounds');

        // By hand from the row's own page: unlinked, then linked again, the pound row named with the rate it implies.
        await page.goto(`${app.server.url}/transactions/${moved!.id}/edit`);
        const section = page.getByRole('region', { name: 'Transfer' });
        await section.getByRole('button', { name: 'Unlink transfer' }).click();
        await section.getByRole('button', { name: 'Link as transfer…' }).click();
        const other = section.getByRole('button', { name: /Pounds · INCOMING · £85\.20 · 1 EUR = 0\.852 GBP$/ });
        await other.waitFor();
        await expectNoSeriousA11yViolations(page, `link across currencies ${width}`);
        await other.click();
        await section.getByRole('button', { name: 'Unlink transfer' }).waitFor();
        const again = await api.transactions.get.query({ id: moved!.id });
        expect(again.transferCounterpartAccount).toBe('Pounds');
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    },
  );

  it.each([
    [1366, 900],
    [390, 844],
  ])(
    'someone from before currencies is asked once, offered their language’s currency, at %ipx',
    async (width, height) => {
      const { close, page, errors, user } = await sessionAt(
        width,
        height,
        {
          path: '/accounts',
          before: async (user) => {
            await trpcApi(app.server, user.accessToken).accounts.create.mutate({ name: 'Old', type: 'checking' });
            // As the upgrade leaves a person who had data: home USD, not chosen.
            await app.server.sql('update "user" set home_currency_chosen = false where id = ?', [user.user.id]);
          },
        },
        { locale: 'de-DE' },
      );
      try {
        const prompt = page.getByRole('status').filter({ hasText: 'Choose your home currency' });
        await prompt.getByText('Your accounts are in USD until you do.').waitFor();
        await expectNoSeriousA11yViolations(page, `home currency prompt ${width}`);
        await screenshotAndCheckWidth(page, `currencies-prompt-${width}`);
        await prompt.getByRole('link', { name: 'Choose' }).click();
        const home = page.getByRole('region', { name: 'Home currency' });
        await expect.poll(() => home.getByRole('combobox', { name: 'Home currency' }).innerText()).toMatch(/EUR/);
        await home.getByRole('button', { name: 'Save home currency' }).click();
        await home.getByRole('status').getByText('now shown in EUR').waitFor();
        const [account] = await trpcApi(app.server, user.accessToken).accounts.list.query();
        expect(account?.currency).toBe('EUR');
        await openScreen(page, '/accounts', 'Accounts');
        expect(await page.getByText('Choose your home currency').count()).toBe(0);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    },
  );
});
