import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, signedInPage, trpcApi, useBrowserAndServer } from './harness';

/**
 * The periods the history and the trash keep things for, set on Profile: blank fields show the server's, a saved
 * period is the user's own (the hourly job and every read of the history or the trash apply it), a wrong one is
 * refused with the server's message.
 */
const app = useBrowserAndServer({ HISTORY_RETENTION_DAYS: '60', TRASH_RETENTION_DAYS: '20' });

describe('history and trash periods on Profile', () => {
  it('shows the server’s periods, saves the user’s own and refuses a wrong one', async () => {
    let token = '';
    const { close, page, errors } = await signedInPage(
      app.browser,
      app.server,
      1400,
      900,
      {},
      {
        before: (user) => {
          token = user.accessToken;
          return Promise.resolve();
        },
      },
    );
    try {
      await page.goto(`${app.server.url}/profile`);
      const section = page.getByRole('region', { name: 'History and trash' });
      const history = section.getByRole('textbox', { name: 'History (days)' });
      const trash = section.getByRole('textbox', { name: 'Trash (days)' });
      await expect.poll(() => history.getAttribute('placeholder')).toBe('60');
      expect(await trash.getAttribute('placeholder')).toBe('20');
      expect(await history.inputValue()).toBe('');

      await trash.fill('7');
      await section.getByRole('button', { name: 'Save periods' }).click();
      await section.getByRole('status').getByText('the trash keeps deleted transactions 7 days').waitFor();
      const api = trpcApi(app.server, token);
      expect(await api.settings.get.query()).toMatchObject({ historyRetentionDays: null, trashRetentionDays: 7 });
      await expectNoSeriousA11yViolations(page, 'retention periods');

      await trash.fill('0');
      await section.getByRole('button', { name: 'Save periods' }).click();
      await section.getByText('trashRetentionDays must be at least 1').waitFor();
      expect(await api.settings.get.query()).toMatchObject({ trashRetentionDays: 7 });

      // Blank again: the server's period.
      await trash.fill('');
      await section.getByRole('button', { name: 'Save periods' }).click();
      await section.getByRole('status').getByText('the trash keeps deleted transactions 20 days').waitFor();
      expect(await api.settings.get.query()).toMatchObject({ trashRetentionDays: null });
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
