import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { savedDownload, signedInPage, trpcApi, useBrowserAndServer } from './harness';

/**
 * The downloads the Transactions screen ("Export CSV") and the Profile screen ("Download all my
 * data") will offer, started the way a browser starts them: a plain link carrying the signed-in
 * session's access token, saved as a file by real Chromium.
 */
const app = useBrowserAndServer();

describe('downloads a signed-in browser can start with a link', () => {
  it('saves the transactions CSV and the all-my-data JSON under their own names', async () => {
    const { close, page, user, errors } = await signedInPage(app.browser, app.server);
    try {
      const api = trpcApi(app.server, user.accessToken);
      await api.accounts.create.mutate({ name: 'Checking', type: 'checking' });
      const coffee = await api.transactions.create.mutate({
        postDate: '2024-03-05',
        description: 'Coffee, large',
        amount: -450,
        account: 'Checking',
        category: 'Dining',
      });
      const formula = await api.transactions.create.mutate({
        postDate: '2024-03-06',
        description: '=1+2',
        amount: 1000,
        account: 'Checking',
      });

      const download = async (path: string) => {
        const [file] = await Promise.all([
          page.waitForEvent('download'),
          page.evaluate((target) => {
            const link = document.createElement('a');
            link.href = `${target}${target.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(localStorage.getItem('accessToken') ?? '')}`;
            link.download = '';
            document.body.append(link);
            link.click();
            link.remove();
          }, path),
        ]);
        return { name: file.suggestedFilename(), text: readFileSync(await savedDownload(file), 'utf8') };
      };

      const csv = await download('/api/transactions/export.csv?start_date=2024-03-01&end_date=2024-03-31');
      expect(csv.name).toBe('transactions-2024-03-01-to-2024-03-31.csv');
      expect(csv.text.split('\r\n')).toEqual([
        '\uFEFFDate,Description,Amount,Category,Type,Account,Split,Split of,Batch,ID',
        `2024-03-06,'=1+2,10.00,,credit,Checking,,,,${formula.id}`,
        `2024-03-05,"Coffee, large",-4.50,Dining,debit,Checking,,,,${coffee.id}`,
        '',
      ]);

      const json = await download('/api/export');
      expect(json.name).toMatch(/^budget-tracker-export-\d{4}-\d{2}-\d{2}\.json$/);
      const doc = JSON.parse(json.text);
      expect(doc).toMatchObject({ format: 'budget-tracker', version: 1 });
      expect(doc.transactions.map((t: { description: string }) => t.description)).toEqual(['Coffee, large', '=1+2']);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
