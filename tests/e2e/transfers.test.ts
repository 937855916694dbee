import { describe, expect, it } from 'vitest';
import { localIsoDate } from '../../src/shared/dates/calendar';
import { expectNoSeriousA11yViolations, signedInPage, trpcApi, useBrowserAndServer } from './harness';

/**
 * Transfers on the Transactions screen: "New transfer" (under More actions) writes both sides, each row names the other
 * account; two imports leave a pair to confirm, and Accept links it. On a desktop and a phone, with
 * axe after each step.
 */
const app = useBrowserAndServer();
const today = localIsoDate(new Date());

async function upload(token: string, account: string, csv: string) {
  const form = new FormData();
  form.append('account', account);
  form.append('file', new Blob([csv]), `${account}.csv`);
  const res = await fetch(`${app.server.url}/api/upload`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
}

describe('transfers', () => {
  for (const [label, width, height] of [
    ['desktop', 1366, 900],
    ['phone', 390, 844],
  ] as const)
    it(`creates a transfer with both sides linked and accepts one import offered (${label})`, async () => {
      const session = await signedInPage(
        app.browser,
        app.server,
        1400,
        900,
        {},
        {
          path: '/transactions',
          before: async (user) => {
            const api = trpcApi(app.server, user.accessToken);
            await api.accounts.create.mutate({ name: 'Everyday', type: 'checking' });
            await api.accounts.create.mutate({ name: 'Holiday fund', type: 'savings' });
            // Two imports: 80.00 out of one account and in to the other three days apart, a rival of the same amount.
            await upload(user.accessToken, 'Everyday', `Date,Description,Amount\n${today},MOVE MONEY,-80.00\n`);
            await upload(
              user.accessToken,
              'Holiday fund',
              `Date,Description,Amount\n${today},INCOMING,80.00\n${today},INTEREST,80.00\n`,
            );
          },
        },
      );
      const { page, close } = session;
      page.setDefaultTimeout(15_000);
      await page.setViewportSize({ width, height });
      const api = trpcApi(app.server, session.user.accessToken);
      const panel = page.getByRole('region', { name: 'Transfers to confirm' });
      await panel.getByText('2 waiting').waitFor();
      await expectNoSeriousA11yViolations(page, `transfers to confirm ${label}`);

      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'New transfer' }).click();
      const dialog = page.getByRole('dialog', { name: 'New transfer' });
      await dialog.getByRole('combobox', { name: 'From account' }).click();
      await page.getByRole('option', { name: 'Everyday' }).click();
      await dialog.getByRole('combobox', { name: 'To account' }).click();
      await page.getByRole('option', { name: 'Holiday fund' }).click();
      await dialog.getByRole('textbox', { name: 'Amount' }).fill('125.50');
      await expectNoSeriousA11yViolations(page, `new transfer dialog ${label}`);
      await dialog.getByRole('button', { name: 'Save transfer' }).click();
      await panel.getByText('Transfer saved: Everyday to Holiday fund').waitFor();
      await page.getByText('Transfer to Holiday fund').first().waitFor();
      await page.getByText('Transfer from Everyday').first().waitFor();
      const rows = await api.transactions.list.query({ startDate: today, endDate: today });
      const out = rows.find((row) => row.amount === -12_550)!;
      expect(out).toMatchObject({ account: 'Everyday', transferCounterpartAccount: 'Holiday fund' });
      expect(rows.find((row) => row.id === out.transferCounterpartId)).toMatchObject({ amount: 12_550 });

      await panel
        .getByRole('button', { name: /^Accept transfer: \$80\.00 from Everyday .* to Holiday fund/ })
        .first()
        .click();
      await panel.getByText(/^Linked: \$80\.00 from Everyday/).waitFor();
      await panel.getByText('None waiting').waitFor();
      await expectNoSeriousA11yViolations(page, `transfer accepted ${label}`);
      // With nothing waiting and nothing to say, the panel takes no room above the rows.
      await panel.getByRole('button', { name: 'Close' }).click();
      await panel.waitFor({ state: 'detached' });
      const moved = (await api.transactions.list.query({ startDate: today, endDate: today })).find(
        (row) => row.description === 'MOVE MONEY',
      );
      expect(moved?.transferCounterpartAccount).toBe('Holiday fund');

      // From the row's own page: unlink the pair, then link it to the other candidate by hand.
      await page.goto(`${app.server.url}/transactions/${moved!.id}/edit`);
      const section = page.getByRole('region', { name: 'Transfer' });
      await section.getByText('Transfer to Holiday fund').waitFor();
      await section.getByRole('button', { name: 'Unlink transfer' }).click();
      await section.getByRole('button', { name: 'Link as transfer…' }).click();
      const other = section.getByRole('button', { name: /Holiday fund · INTEREST · \$80\.00$/ });
      await other.waitFor();
      await expectNoSeriousA11yViolations(page, `link picker ${label}`);
      await other.click();
      await section.getByText('Transfer to Holiday fund').waitFor();
      const relinked = (await api.transactions.list.query({ startDate: today, endDate: today })).find(
        (row) => row.id === moved!.id,
      );
      const interest = (await api.transactions.list.query({ startDate: today, endDate: today })).find(
        (row) => row.description === 'INTEREST',
      );
      expect(relinked?.transferCounterpartId).toBe(interest?.id);
      await close();
    });
});
