import { describe, expect, it } from 'vitest';
import {
  expectNoSeriousA11yViolations,
  screenshotAndCheckWidth,
  signedInPage,
  trpcApi,
  useBrowserAndServer,
} from './harness';

/**
 * Undo that survives a reload: the History screen lists changes with Undo and Redo, Ctrl+Z undoes the latest
 * change outside text fields, a success message offers Undo, and deleted rows come back from the trash; on a
 * desktop and a phone, with axe after each step.
 */
const app = useBrowserAndServer();

async function openHistory(width: number, height: number) {
  const session = await signedInPage(
    app.browser,
    app.server,
    1400,
    900,
    {},
    {
      path: '/history',
      before: async (user) => {
        const api = trpcApi(app.server, user.accessToken);
        await api.accounts.create.mutate({ name: 'Checking', type: 'checking' });
        for (const [postDate, description, amount] of [
          ['2026-01-03', 'Corner grocer', -4210],
          ['2026-01-04', 'Monthly salary', 250_000],
        ] as const)
          await api.transactions.create.mutate({ postDate, description, amount, account: 'Checking' });
      },
    },
  );
  session.page.setDefaultTimeout(15_000);
  await session.page.setViewportSize({ width, height });
  await session.page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
  return { ...session, api: trpcApi(app.server, session.user.accessToken) };
}

async function descriptionOf(api: ReturnType<typeof trpcApi>, id: number): Promise<string | undefined> {
  return (await api.transactions.list.query({ startDate: '2000-01-01', endDate: '2100-01-01' })).find(
    (row) => row.id === id,
  )?.description;
}

const changes = (page: import('playwright-core').Page) =>
  page.getByRole('list', { name: 'Changes' }).getByRole('listitem').allInnerTexts();

describe('History screen', () => {
  for (const [label, width, height] of [
    ['desktop', 1366, 900],
    ['phone', 390, 844],
  ] as const)
    it(`undoes and redoes a change, also after a reload, and restores from the trash (${label})`, async () => {
      const { page, close, api } = await openHistory(width, height);
      const [grocer] = (await api.transactions.list.query({ startDate: '2000-01-01', endDate: '2100-01-01' })).filter(
        (row) => row.description === 'Corner grocer',
      );
      await api.transactions.update.mutate({ id: grocer.id, data: { description: 'Grocer (weekly)' } });
      await page.reload();
      await expect
        .poll(() => changes(page))
        .toEqual([
          expect.stringContaining('Edited “Grocer (weekly)”'),
          expect.stringContaining('Added “Monthly salary”'),
          expect.stringContaining('Added “Corner grocer”'),
        ]);
      await expectNoSeriousA11yViolations(page, `history ${label}`);

      const edited = page.getByRole('listitem', { name: 'Edited “Grocer (weekly)”' });
      await edited.getByRole('button', { name: 'Undo' }).click();
      await page.getByText('Undone: Edited “Grocer (weekly)”').waitFor();
      await expect.poll(() => descriptionOf(api, grocer.id)).toBe('Corner grocer');
      await edited.getByRole('button', { name: 'Redo' }).click();
      await expect.poll(() => descriptionOf(api, grocer.id)).toBe('Grocer (weekly)');

      // Ctrl+Z outside a text field undoes the latest change, even after a reload.
      await page.reload();
      await page.getByRole('heading', { name: 'History', level: 1 }).click();
      await page.keyboard.press('Control+z');
      await expect.poll(() => descriptionOf(api, grocer.id)).toBe('Corner grocer');
      await page.keyboard.press('Control+Shift+z');
      await expect.poll(() => descriptionOf(api, grocer.id)).toBe('Grocer (weekly)');

      await api.transactions.deleteMany.mutate({ ids: [grocer.id] });
      await page.getByRole('tab', { name: 'Trash' }).click();
      const trash = page.getByRole('list', { name: 'Trash' });
      await trash.getByText('Grocer (weekly)', { exact: false }).waitFor();
      await expectNoSeriousA11yViolations(page, `trash ${label}`);
      await screenshotAndCheckWidth(page, `history-trash-${label}`);
      await trash.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Restore 1 selected' }).click();
      // The success message offers to undo the restore it reports.
      const restored = page.getByRole('status').filter({ hasText: 'Restored 1 transaction from the trash' });
      await restored.getByRole('button', { name: 'Undo' }).click();
      await page.getByText('Undone: Restored 1 transaction from the trash').waitFor();
      await expect.poll(() => descriptionOf(api, grocer.id)).toBeUndefined();
      await trash.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Restore 1 selected' }).click();
      await expect.poll(() => descriptionOf(api, grocer.id)).toBe('Grocer (weekly)');
      await expectNoSeriousA11yViolations(page, `trash restored ${label}`);
      await close();
    });
});
