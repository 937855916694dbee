import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './harness';
import { useEnvelopesScreen } from './envelopes-screen';

// Split from envelopes.test.ts so the two halves run in parallel workers; the helpers are in envelopes-screen.ts.
const {
  seededSession,
  STANDARD,
  card,
  cardNames,
  openButton,
  formDialog,
  transactionsSection,
  screenshotFromTop,
  total,
  envelopesOf,
} = useEnvelopesScreen();

describe('Envelopes: keyboard, errors and layout', () => {
  it('is usable from the keyboard: dialogs open with Enter and close with Escape', async () => {
    const { page, close, api } = await seededSession(1400, STANDARD);
    const create = page.getByRole('button', { name: 'Create Envelope' });
    await create.focus();
    await page.keyboard.press('Enter');
    const dialog = formDialog(page, 'Create Envelope');
    await dialog.waitFor();
    // Focus starts in Name and stays inside the dialog.
    expect(
      await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent),
    ).toMatch(/^Name/);
    await page.keyboard.type('Never saved');
    for (let i = 0; i < 25; i++) await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await create.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await envelopesOf(api)).toHaveLength(3);

    // Reopening starts from an empty form.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(await dialog.getByLabel('Name').inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Escape also cancels the delete confirmation.
    await card(page, 'Travel').getByRole('button', { name: 'Delete Travel' }).focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Delete Envelope' });
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'hidden' });
    expect(await cardNames(page)).toEqual(['Food', 'Income', 'Travel']);
    await close();
  });

  it("shows the server's refusal, 'Failed to save envelope', 'Failed to delete envelope' and 'Failed to fetch envelopes'", async () => {
    const { page, close, api } = await seededSession(1400, STANDARD);
    // The server refuses a name over 255 characters: its message is shown.
    await page.getByRole('button', { name: 'Create Envelope' }).click();
    const dialog = formDialog(page, 'Create Envelope');
    await dialog.getByLabel('Name').fill('x'.repeat(256));
    await dialog.getByLabel('Categories').fill('Books');
    await dialog.getByRole('button', { name: 'Save Envelope' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Envelope name must be at most 255 characters' }).waitFor();
    expect(await dialog.getByRole('alert').textContent()).not.toBe('Failed to save envelope');
    expect(await dialog.isVisible()).toBe(true);

    // A call that never reaches the server gives the fallback text.
    await page.route('**/trpc/envelopes.create**', (route) => route.abort());
    await dialog.getByLabel('Name').fill('Books');
    await dialog.getByRole('button', { name: 'Save Envelope' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: /^Failed to save envelope$/ })
      .waitFor();
    await page.unroute('**/trpc/envelopes.create**');
    await dialog.getByRole('button', { name: 'Save Envelope' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => cardNames(page)).toEqual(['Books', 'Food', 'Income', 'Travel']);
    expect(await total(card(page, 'Books'))).toEqual({ text: '$20.00', red: true });

    await page.route('**/trpc/envelopes.delete**', (route) => route.abort());
    await card(page, 'Books').getByRole('button', { name: 'Delete Books' }).click();
    await page.getByRole('dialog', { name: 'Delete Envelope' }).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Failed to delete envelope$/ })
      .waitFor();
    expect(await cardNames(page)).toEqual(['Books', 'Food', 'Income', 'Travel']);
    expect(await envelopesOf(api)).toHaveLength(4);

    // Matched by path: the list may share a batched request with other queries.
    const listCalls = (url: URL) => url.pathname.includes('envelopes.list');
    await page.route(listCalls, (route) => route.abort());
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'Failed to fetch envelopes' }).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('list', { name: 'Envelopes' }).count()).toBe(0);
    expect(await page.getByText('No Envelopes Yet').count()).toBe(0);
    // Retry once the server can be reached again.
    await page.unroute(listCalls);
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => cardNames(page)).toEqual(['Books', 'Food', 'Income', 'Travel']);
    await close();
  });

  it('fits a 576 px screen: grid, filter, transactions and the modal', async () => {
    const { page, close, api } = await seededSession(576, [
      ...STANDARD,
      {
        name: 'A rather long envelope name that has to wrap on narrow screens',
        categories: ['Books', 'Magazines', 'Newspapers'],
      },
    ]);
    const [, food] = await envelopesOf(api);
    await api.envelopes.update.mutate({ id: food.id, data: { isActive: false } });
    await page.reload();
    await card(page, 'Food').getByText('INACTIVE', { exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Show All Time' }).uncheck();
    await page.getByLabel('From', { exact: true }).fill('2024-01-01');
    await openButton(card(page, 'Food')).click();
    await transactionsSection(page, 'Food').waitFor();
    await screenshotFromTop(page, 'envelopes-576');
    await expectNoSeriousA11yViolations(page, 'envelopes at 576 px');

    await card(page, 'Income').getByRole('button', { name: 'Edit Income' }).click();
    const dialog = formDialog(page, 'Edit Envelope');
    await dialog.getByRole('radio', { name: 'Light Green' }).waitFor();
    await screenshotFromTop(page, 'envelopes-dialog-576');
    await expectNoSeriousA11yViolations(page, 'envelope dialog at 576 px');
    await close();
  });
});
