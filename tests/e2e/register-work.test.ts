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
 * Working in a register: a row's cleared status toggles with a click, its date, description,
 * amount, category and memo are edited in place (Enter saves, Escape puts it back, a refusal puts
 * it back with the reason), reconciling marks the cleared rows, and a reconciled row's amount
 * changes only after a yes.
 */
const app = useBrowserAndServer();

/** [date, description, amount, balance, memo] of every transaction row shown. */
function rows(page: Page) {
  return page
    .getByRole('table', { name: 'Register', exact: true })
    .getByRole('row')
    .evaluateAll((all) =>
      all
        .map((row) => [...row.querySelectorAll('[role=cell]')].map((cell) => (cell as HTMLElement).innerText.trim()))
        .filter((cells) => cells.length > 5)
        .map((cells) => [cells[0], cells[1], cells[3], cells[4], cells[5]]),
    );
}

describe('a register you can work in', () => {
  it.each([
    [1366, 900],
    [390, 844],
  ])('clears, edits in place, reconciles and asks before changing a reconciled row at %ipx', async (width, height) => {
    let accountId = 0;
    const { close, page, errors, user } = await signedInPage(
      app.browser,
      app.server,
      1400,
      900,
      {},
      {
        before: async (registered) => {
          const api = trpcApi(app.server, registered.accessToken);
          accountId = (
            await api.accounts.create.mutate({
              name: 'Main',
              type: 'checking',
              openingBalance: 100_000,
              openingDate: '2024-01-01',
            })
          ).id;
          await api.categories.create.mutate({ name: 'Housing' });
          for (const [postDate, description, amount] of [
            ['2024-01-05', 'Rent', -90_000],
            ['2024-01-10', 'Pay', 200_000],
          ] as const)
            await api.transactions.create.mutate({ postDate, description, amount, account: 'Main' });
        },
      },
    );
    try {
      const api = trpcApi(app.server, user.accessToken);
      await page.setViewportSize({ width, height });
      await page.goto(`${app.server.url}/accounts/${accountId}?range=All`);
      await page.getByText('2 transactions', { exact: true }).waitFor();
      expect(await rows(page)).toEqual([
        ['2024-01-10', 'Pay', '$2,000.00', '$2,100.00', ''],
        ['2024-01-05', 'Rent', '−$900.00', '$100.00', ''],
      ]);
      // The register fits its screen: nothing to scroll sideways inside its own box.
      const register = page.getByRole('table', { name: 'Register', exact: true });
      expect(await register.evaluate((table) => table.scrollWidth - table.clientWidth)).toBeLessThanOrEqual(0);

      // A click clears a row.
      await page.getByRole('button', { name: 'Uncleared: Rent' }).click();
      await page.getByRole('button', { name: 'Cleared: Rent' }).waitFor();
      await expect
        .poll(
          async () =>
            (await api.transactions.list.query({ startDate: '2024-01-05', endDate: '2024-01-05' }))[0]?.cleared,
        )
        .toBe('cleared');
      await expectNoSeriousA11yViolations(page, `register cleared at ${width}`);

      // Edit in place: Enter saves every field changed.
      await page.getByRole('button', { name: 'Edit Rent' }).click();
      const editing = page.getByRole('row', { name: 'Editing Rent' });
      await editing.getByLabel('Description').fill('Rent January');
      await editing.getByLabel('Memo').fill('Paid by transfer');
      await editing.getByLabel('Amount').fill('-950');
      await editing.getByRole('combobox', { name: 'Category' }).click();
      await page.getByRole('option', { name: 'Housing' }).click();
      await expectNoSeriousA11yViolations(page, `register editing at ${width}`);
      await editing.getByLabel('Memo').press('Enter');
      await expect
        .poll(() => rows(page))
        .toEqual([
          ['2024-01-10', 'Pay', '$2,000.00', '$2,050.00', ''],
          ['2024-01-05', 'Rent January', '−$950.00', '$50.00', 'Paid by transfer'],
        ]);
      const [rent] = await api.transactions.list.query({ startDate: '2024-01-05', endDate: '2024-01-05' });
      expect(rent).toMatchObject({
        description: 'Rent January',
        memo: 'Paid by transfer',
        amount: -95_000,
        category: 'Housing',
      });

      // Escape puts the row back; a refusal puts it back too, with the server's reason.
      await page.getByRole('button', { name: 'Edit Pay' }).click();
      await page.getByRole('row', { name: 'Editing Pay' }).getByLabel('Description').fill('Salary');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Edit Pay' }).waitFor();
      expect((await rows(page))[0]?.[1]).toBe('Pay');
      await page.getByRole('button', { name: 'Edit Pay' }).click();
      await page.getByRole('row', { name: 'Editing Pay' }).getByLabel('Description').fill(' ');
      await page.keyboard.press('Enter');
      await page.getByRole('alert').filter({ hasText: 'Description' }).waitFor();
      expect((await rows(page))[0]?.[1]).toBe('Pay');
      await expectNoSeriousA11yViolations(page, `register refusal at ${width}`);

      // Reconcile: the statement says 60.00 on 2024-01-31; the register 2,050.00 (Pay is not cleared but counts).
      await page.getByLabel('Statement date').fill('2024-01-05');
      await page.getByLabel('Statement balance').fill('60');
      await page.getByRole('button', { name: 'Reconcile', exact: true }).click();
      await page.getByText('Difference: $10.00').waitFor();
      await page.getByRole('button', { name: 'Add adjustment and reconcile' }).click();
      await page.getByText(/^Reconciled: 2 cleared transactions marked reconciled/).waitFor();
      await page.getByRole('button', { name: 'Reconciled: Rent January' }).waitFor();
      await page.getByRole('button', { name: 'Reconciled: Reconciliation adjustment' }).waitFor();
      await expectNoSeriousA11yViolations(page, `register reconciled at ${width}`);

      // A reconciled row's amount changes only after a yes.
      await page.getByRole('button', { name: 'Edit Rent January' }).click();
      await page.getByRole('row', { name: 'Editing Rent January' }).getByLabel('Amount').fill('-960');
      await page.keyboard.press('Enter');
      const ask = page.getByRole('dialog', { name: 'Change a reconciled transaction?' });
      await ask.waitFor();
      await expectNoSeriousA11yViolations(page, `reconciled question at ${width}`);
      await ask.getByRole('button', { name: 'Change it' }).click();
      await expect
        .poll(
          async () =>
            (await api.transactions.list.query({ startDate: '2024-01-05', endDate: '2024-01-05' })).find(
              (t) => t.description === 'Rent January',
            )?.amount,
        )
        .toBe(-96_000);
      await screenshotAndCheckWidth(page, `register-work-${width}`);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
