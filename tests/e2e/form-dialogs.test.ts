import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, signedInPage, trpcApi, useBrowserAndServer } from './harness';

/**
 * The dialogs that create or edit something share one behaviour (FormDialog): focus starts in the first field,
 * Enter in a field saves, and while the save is under way the buttons are disabled, Save says so, and Escape does
 * not close the dialog; a refusal is shown in the dialog, which stays open.
 */
const app = useBrowserAndServer();

const activeLabel = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? '');

/** Holds the calls to `path` until the returned function is called; each is then sent on to the server. */
async function holdCalls(page: Page, path: string): Promise<() => Promise<void>> {
  const held: Route[] = [];
  await page.route(`**/trpc/${path}**`, (route) => {
    held.push(route);
  });
  return async () => {
    await expect.poll(() => held.length).toBeGreaterThan(0);
    for (const route of held) await route.continue();
    await page.unroute(`**/trpc/${path}**`);
  };
}

async function openRules(width: number, height: number) {
  const session = await signedInPage(app.browser, app.server, 1400, 900, {}, { path: '/rules' });
  session.page.setDefaultTimeout(15_000);
  await session.page.setViewportSize({ width, height });
  await session.page.getByRole('heading', { name: 'Rules', level: 1 }).waitFor();
  return { ...session, api: trpcApi(app.server, session.user.accessToken) };
}

describe('Dialogs that save something', () => {
  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    it(`start in their first field, save on Enter and hold still while saving (${width} px)`, async () => {
      const { page, close, api, errors } = await openRules(width, height);
      await page.getByRole('button', { name: 'New rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New rule' });
      await dialog.waitFor();
      await expect.poll(() => activeLabel(page)).toMatch(/^Rule name/);
      await expectNoSeriousA11yViolations(page, `rule dialog opened at ${width} px`);

      // Enter with an empty name: the refusal shows in the dialog, which stays open.
      await page.keyboard.press('Enter');
      await dialog.getByRole('alert').filter({ hasText: 'Rule name is required' }).waitFor();
      await expectNoSeriousA11yViolations(page, `rule dialog refusal at ${width} px`);

      await page.keyboard.type('Coffee');
      await dialog.getByLabel('Set category').fill('Coffee Shops');
      await page.getByRole('option', { name: 'Create category "Coffee Shops"' }).click();
      await dialog.getByLabel('Condition 1 value').fill('starbucks');
      const release = await holdCalls(page, 'rules.create');
      await page.keyboard.press('Enter');
      const busy = dialog.getByRole('button', { name: 'Saving…' });
      await busy.waitFor();
      expect(await busy.isDisabled()).toBe(true);
      expect(await dialog.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
      await page.keyboard.press('Escape');
      expect(await dialog.isVisible()).toBe(true);
      await expectNoSeriousA11yViolations(page, `rule dialog saving at ${width} px`);

      await release();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByText("Rule 'Coffee' saved").waitFor();
      expect((await api.rules.list.query()).map((rule) => rule.name)).toEqual(['Coffee']);
      await expectNoSeriousA11yViolations(page, `rules after saving at ${width} px`);
      expect(errors).toEqual([]);
      await close();
    });
  }
});
