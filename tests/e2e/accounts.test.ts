import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  screenshotAndCheckWidth,
  signedInPage,
  trpcApi,
  useBrowserAndServer,
} from './harness';

/**
 * The Accounts screen: every account with its type, balance (opening balance plus its rows) and
 * last import, the net worth and its line, creating and editing an account in a dialog, and each
 * name leading to its register, where the running balance ends at the opening balance.
 */
const app = useBrowserAndServer();

/** [account, type, currency, plan, balance, last import] of every account row, as shown at a desktop width. */
function accountRows(page: Page) {
  return page
    .getByRole('table', { name: 'Accounts' })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) =>
        [...row.querySelectorAll('th, td')].slice(0, 6).map((cell) => (cell as HTMLElement).innerText.trim()),
      ),
    );
}

async function seed(server: typeof app.server, token: string): Promise<void> {
  const api = trpcApi(server, token);
  await api.accounts.create.mutate({
    name: 'Everyday',
    type: 'checking',
    openingBalance: 100_000,
    openingDate: '2025-12-31',
  });
  await api.accounts.create.mutate({ name: 'Card', type: 'credit', openingBalance: -5_000, openingDate: '2025-12-31' });
  const form = new FormData();
  form.append('account', 'Everyday');
  form.append(
    'file',
    new Blob(['Date,Description,Amount\n2026-01-05,Pay,1200.00\n2026-01-06,Rent,-950.50\n']),
    'jan.csv',
  );
  const res = await fetch(`${server.url}/api/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
  await api.transactions.create.mutate({ postDate: '2026-01-07', description: 'Cafe', amount: -450, account: 'Card' });
}

describe('the Accounts screen', () => {
  it.each([
    [1366, 900],
    [390, 844],
  ])(
    'lists balances and last imports, creates and edits accounts, and opens registers at %ipx',
    async (width, height) => {
      // Signed in at desktop width (the welcome it waits for is hidden on a phone), then sized.
      const { close, page, errors, user } = await signedInPage(
        app.browser,
        app.server,
        1400,
        900,
        {},
        { before: (user) => seed(app.server, user.accessToken) },
      );
      try {
        await page.setViewportSize({ width, height });
        // In the bar on a wide screen, in the menu on a narrower one.
        const inBar = page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Accounts', exact: true });
        if (!(await inBar.isVisible())) await page.getByRole('button', { name: 'Open navigation' }).click();
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Accounts', exact: true })
          .click();
        await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
        const table = page.getByRole('table', { name: 'Accounts' });
        await table.getByRole('link', { name: 'Everyday' }).waitFor();
        const today = new Date().toISOString().slice(0, 10);
        if (width > 600) {
          expect(await accountRows(page)).toEqual([
            ['Card', 'credit', 'USD', 'On plan', '−$54.50', 'Never'],
            ['Everyday', 'checking', 'USD', 'On plan', '$1,249.50', `${today} · jan.csv`],
          ]);
        } else {
          // A phone shows the type and last import under the name.
          await table.getByText(`checking · USD · On plan · last import ${today} · jan.csv`).waitFor();
          await table.getByText('credit · USD · On plan · last import Never').waitFor();
        }
        await expect.poll(() => page.getByTestId('net-worth').innerText()).toBe('$1,195.00');
        await page.getByTestId('net-worth-chart').locator('svg').first().waitFor();
        await page.getByText(/Net worth at the end of each month: .* to \$1,195\.00/).waitFor();
        await expectNoSeriousA11yViolations(page, `accounts ${width}`);
        await screenshotAndCheckWidth(page, `accounts-${width}`);

        // A new account: its opening balance is its balance.
        await page.getByRole('button', { name: 'New account' }).click();
        const dialog = page.getByRole('dialog', { name: 'New account' });
        await dialog.getByLabel('Name').fill('Savings');
        await dialog.getByRole('combobox', { name: 'Type' }).click();
        await page.getByRole('option', { name: 'savings' }).click();
        await dialog.getByLabel('Opening balance').fill('300');
        await dialog.getByLabel('Opening date').fill('2026-01-01');
        await expectNoSeriousA11yViolations(page, `new account dialog ${width}`);
        await dialog.getByRole('button', { name: 'Create account' }).click();
        await page.getByText("Account 'Savings' created").waitFor();
        await expect.poll(() => page.getByTestId('net-worth').innerText()).toBe('$1,495.00');

        // A name already taken is refused in the dialog, naming it; nothing is added.
        await page.getByRole('button', { name: 'New account' }).click();
        await dialog.getByLabel('Name').fill('savings');
        await dialog.getByRole('combobox', { name: 'Type' }).click();
        await page.getByRole('option', { name: 'cash' }).click();
        await dialog.getByRole('button', { name: 'Create account' }).click();
        await dialog.getByRole('alert').getByText("An account named 'Savings' already exists").waitFor();
        await expectNoSeriousA11yViolations(page, `refused account ${width}`);
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached' });
        expect(await table.locator('tbody tr').count()).toBe(3);

        // Editing the opening balance moves the balance by as much.
        await page.getByRole('button', { name: 'Edit Everyday' }).click();
        const edit = page.getByRole('dialog', { name: "Edit account 'Everyday'" });
        await edit.getByLabel('Opening balance').fill('1100');
        await edit.getByRole('button', { name: 'Save account' }).click();
        await page.getByText("Account 'Everyday' saved").waitFor();
        await expect.poll(() => page.getByTestId('net-worth').innerText()).toBe('$1,595.00');
        await expectNoSeriousA11yViolations(page, `accounts after edit ${width}`);

        // Off the plan: the flag is the user's to set, and the list says which.
        await page.getByRole('button', { name: 'Edit Card' }).click();
        const card = page.getByRole('dialog', { name: "Edit account 'Card'" });
        const onPlan = card.getByRole('checkbox', { name: /^On the plan/ });
        expect(await onPlan.isChecked()).toBe(true);
        await onPlan.uncheck();
        await card.getByRole('button', { name: 'Save account' }).click();
        await page.getByText("Account 'Card' saved").waitFor();
        await table
          .getByText(/Off plan/)
          .filter({ visible: true })
          .waitFor();
        const accounts = await trpcApi(app.server, user.accessToken).accounts.list.query();
        expect(accounts.find((a) => a.name === 'Card')?.onBudget).toBe(false);

        // The name opens the register: the newest balance is the account's, the oldest line its opening balance.
        await table.getByRole('link', { name: 'Everyday' }).click();
        await page.getByRole('heading', { name: 'Register: Everyday', level: 1 }).waitFor();
        await page.getByTestId('register-balance').getByText('Balance: $1,349.50').waitFor();
        await page.getByRole('button', { name: 'All', exact: true }).click();
        await page.getByText('2 transactions', { exact: true }).waitFor();
        const register = page.getByRole('table', { name: 'Register', exact: true });
        const figures = await register.getByRole('row').evaluateAll((rows) =>
          rows
            .map((row) => [...row.querySelectorAll('[role=cell]')].map((c) => (c as HTMLElement).innerText.trim()))
            .filter((cells) => cells.length > 0)
            .map((cells) => [cells[0], cells[1], cells[3], cells[4]]),
        );
        expect(figures).toEqual([
          ['2026-01-06', 'Rent', '−$950.50', '$1,349.50'],
          ['2026-01-05', 'Pay', '$1,200.00', '$2,300.00'],
          ['2025-12-31', 'Opening balance', '$1,100.00', '$1,100.00'],
        ]);
        await expectNoSeriousA11yViolations(page, `register ${width}`);
        await page.getByRole('link', { name: 'All accounts' }).click();
        await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    },
  );
});
