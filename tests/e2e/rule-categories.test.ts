import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, signedInPage, trpcApi, useBrowserAndServer } from './harness';

/**
 * A rule's "Set category" picks one of the person's categories; a typo never becomes a category
 * (creating one is a choice of its own), and two rules may not share a name.
 */
const app = useBrowserAndServer();

describe('the rule dialog', () => {
  it.each([
    [1366, 900],
    [390, 844],
  ])(
    'picks an existing category, creates one only when chosen, and refuses a taken name at %ipx',
    async (width, height) => {
      const { close, page, errors, user } = await signedInPage(
        app.browser,
        app.server,
        1400,
        900,
        {},
        {
          path: '/rules',
          before: async (user) => {
            const api = trpcApi(app.server, user.accessToken);
            await api.categories.create.mutate({ name: 'Groceries' });
            await api.categories.create.mutate({ name: 'Eating Out' });
            await api.rules.create.mutate({
              name: 'Coffee',
              conditions: [{ field: 'description', op: 'contains', value: 'coffee' }],
              actions: { type: 'debit' },
            });
          },
        },
      );
      try {
        await page.setViewportSize({ width, height });
        await page.getByRole('button', { name: 'New rule' }).click();
        const dialog = page.getByRole('dialog', { name: 'New rule' });
        await dialog.getByLabel('Rule name').fill('Tesco');
        await dialog.getByLabel('Condition 1 value').fill('tesco');

        // A typo offers the category it resembles, and creating the typo only as a separate choice.
        const picker = dialog.getByLabel('Set category');
        await picker.fill('grocer');
        await page.getByRole('option', { name: 'Groceries', exact: true }).waitFor();
        await page.getByRole('option', { name: 'Create category "grocer"' }).waitFor();
        await expectNoSeriousA11yViolations(page, `category picker open at ${width}`);
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        expect(await picker.inputValue()).toBe('Groceries');
        await dialog.getByText('One of your categories').waitFor();

        // Text left in the field without a choice sets nothing.
        await picker.fill('Grocerys');
        await dialog.getByLabel('Rule name').click();
        expect(await picker.inputValue()).toBe('Groceries');

        // A taken name, in another case, is refused in the dialog with the server's reason.
        await dialog.getByLabel('Rule name').fill('COFFEE');
        await dialog.getByRole('button', { name: 'Save rule' }).click();
        await dialog.getByRole('alert').getByText("A rule named 'Coffee' already exists").waitFor();
        await expectNoSeriousA11yViolations(page, `taken rule name at ${width}`);

        await dialog.getByLabel('Rule name').fill('Tesco');
        await dialog.getByRole('button', { name: 'Save rule' }).click();
        await page.getByText("Rule 'Tesco' saved").waitFor();
        await expectNoSeriousA11yViolations(page, `rules after saving at ${width}`);
        const api = trpcApi(app.server, user.accessToken);
        expect((await api.rules.list.query()).find((r) => r.name === 'Tesco')?.actions).toEqual({
          category: 'Groceries',
        });
        expect((await api.categories.list.query()).map((c) => c.name).sort()).toEqual(['Eating Out', 'Groceries']);
        expect(errors).toEqual([]);
      } finally {
        await close();
      }
    },
  );
});
