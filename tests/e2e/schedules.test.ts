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
 * The Schedules screen, "Due soon" above the transactions and the scheduled occurrences beside a
 * register, on desktop and phone, with axe. The server's today is pinned, so dates are fixed.
 */
const TODAY = '2026-03-10';
const app = useBrowserAndServer({ CLOCK_TODAY: TODAY });

const selectBox = (page: Page, label: string) => page.getByRole('combobox', { name: new RegExp(`^${label}(\\s|$)`) });
async function choose(page: Page, label: string, option: string) {
  await selectBox(page, label).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
}
const scheduleTexts = (page: Page) =>
  page.getByRole('list', { name: 'Schedules', exact: true }).getByRole('listitem').allInnerTexts();

async function openSchedules(width: number, height = 900) {
  let accountId = 0;
  // Signed in at desktop width (the welcome it waits for is hidden on a phone), then sized.
  const session = await signedInPage(
    app.browser,
    app.server,
    1400,
    900,
    {},
    {
      path: '/schedules',
      before: async (user) => {
        const api = trpcApi(app.server, user.accessToken);
        accountId = (await api.accounts.create.mutate({ name: 'Checking', type: 'checking', balance: 500_000 })).id;
        for (const month of ['10', '11', '12'])
          await api.transactions.create.mutate({
            postDate: `2025-${month}-05`,
            description: `NETFLIX.COM ${month}77`,
            amount: -1599,
            account: 'Checking',
          });
        for (const month of ['01', '02', '03'])
          await api.transactions.create.mutate({
            postDate: `2026-${month}-05`,
            description: `NETFLIX.COM ${month}77`,
            amount: -1599,
            account: 'Checking',
          });
      },
    },
  );
  session.page.setDefaultTimeout(15_000);
  await session.page.setViewportSize({ width, height });
  await session.page.getByRole('heading', { name: 'Schedules', level: 1 }).waitFor();
  return { ...session, api: trpcApi(app.server, session.user.accessToken), accountId: () => accountId };
}

describe('Schedules screen', () => {
  it('creates a suggested schedule in one click and a month-end one through the form, skips, and shows what is coming', async () => {
    const { page, close, api, accountId } = await openSchedules(1400);
    const suggestions = page.getByRole('list', { name: 'Suggested schedules' });
    await suggestions.getByText('Netflix · monthly').waitFor();
    await page.getByRole('button', { name: 'Create a schedule for Netflix' }).click();
    await page.getByText("Schedule 'Netflix' created").waitFor();
    await expect.poll(() => scheduleTexts(page)).toEqual([expect.stringContaining('Next 2026-04-05')]);
    await expect.poll(() => suggestions.count()).toBe(0);

    await page.getByRole('button', { name: 'New schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New schedule' });
    await dialog.getByLabel('Name').fill('Rent');
    await dialog.getByLabel('Description').fill('ACME PROPERTIES RENT');
    await dialog.getByLabel('Amount').fill('-1200.00');
    await choose(page, 'Day', '31st');
    await expect.poll(() => dialog.getByLabel('Rule (RFC 5545 RRULE)').inputValue()).toBe('FREQ=MONTHLY;BYMONTHDAY=31');
    await dialog.getByText('Every month on the 31st (or the last day)').waitFor();
    await dialog.getByLabel('Start date').fill('2026-03-31');
    await expectNoSeriousA11yViolations(page, 'schedule dialog');
    await dialog.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByText("Schedule 'Rent' saved").waitFor();
    const [, rent] = await api.schedules.list.query();
    expect(rent).toMatchObject({
      recurrence: 'FREQ=MONTHLY;BYMONTHDAY=31',
      amount: -120_000,
      mode: 'post',
      nextDate: '2026-03-31',
    });

    const calendar = page.getByRole('region', { name: 'Next 60 days' });
    await calendar.getByRole('region', { name: '2026-03-31' }).getByText('Rent').waitFor();
    await page.getByRole('button', { name: 'Skip the next Rent' }).click();
    await page.getByText("Skipped 'Rent' on 2026-03-31").waitFor();
    await calendar.getByRole('region', { name: '2026-03-31' }).getByText('Skipped').waitFor();
    await expect
      .poll(() => scheduleTexts(page))
      .toEqual([expect.stringContaining('Netflix'), expect.stringContaining('Next 2026-04-30')]);
    await expectNoSeriousA11yViolations(page, 'schedules screen');
    await screenshotAndCheckWidth(page, 'schedules-1400');

    // "Due soon" above the transactions: a bill on Thursday.
    await api.schedules.create.mutate({
      name: 'Phone',
      account: 'Checking',
      description: 'TELCO',
      amount: -3999,
      recurrence: 'FREQ=MONTHLY;BYMONTHDAY=12',
      startDate: '2026-03-12',
    });
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Transactions', exact: true })
      .click();
    const dueSoon = page.getByRole('region', { name: 'Due soon' });
    await dueSoon.getByText('2026-03-12 · Phone').waitFor();
    await expectNoSeriousA11yViolations(page, 'transactions with due soon');

    // Beside the register: marked as scheduled, with the balance projected after each.
    await page.goto(`${app.server.url}/accounts/${accountId()}`);
    const scheduled = page.getByRole('table', { name: 'Scheduled occurrences' });
    await scheduled.getByText('Phone').first().waitFor();
    await expect
      .poll(() => scheduled.getByRole('row').allInnerTexts())
      .toEqual([
        expect.stringContaining('Projected balance'),
        // The balance: the opening 5,000.00 plus the seeded rows (-95.94), then each occurrence.
        expect.stringMatching(/2026-03-12\s+Phone\s+Scheduled\s+−\$39\.99\s+\$4,864\.07/),
        expect.stringMatching(/2026-04-05\s+Netflix\s+Scheduled\s+−\$15\.99\s+\$4,848\.08/),
      ]);
    await page.getByRole('button', { name: 'Next 90 days' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('ahead')).toBe('90');
    await expect.poll(() => scheduled.getByRole('row').count()).toBe(9);
    await expectNoSeriousA11yViolations(page, 'register with scheduled occurrences');
    await close();
  });

  it('fits a phone: the list, the calendar and the form', async () => {
    const { page, close, api } = await openSchedules(390, 844);
    await api.schedules.create.mutate({
      name: 'Gym membership with a long name',
      account: 'Checking',
      description: 'PUREGYM LTD DIRECT DEBIT REFERENCE 0042',
      amount: -2999,
      recurrence: 'FREQ=MONTHLY;BYDAY=-1FR',
      mode: 'expect',
      startDate: '2026-02-01',
    });
    await page.reload();
    await expect.poll(() => scheduleTexts(page)).toEqual([expect.stringContaining('1 missed')]);
    await page.getByRole('region', { name: 'Next 60 days' }).getByText('Missed').first().waitFor();
    await screenshotAndCheckWidth(page, 'schedules-390');
    await expectNoSeriousA11yViolations(page, 'schedules on a phone');
    await page.getByRole('button', { name: 'Edit Gym membership with a long name' }).click();
    const dialog = page.getByRole('dialog', { name: "Edit 'Gym membership with a long name'" });
    await expect.poll(() => selectBox(page, 'Repeats').textContent()).toContain('The nth weekday of the month');
    await expectNoSeriousA11yViolations(page, 'schedule form on a phone');
    await screenshotAndCheckWidth(page, 'schedules-form-390');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await close();
  });
});
