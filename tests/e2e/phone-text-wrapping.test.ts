import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, signedInPage, trpcApi, useBrowserAndServer } from './harness';

/**
 * On a phone, long payee names wrap between their words: a word is never cut in two while a space could break the
 * line (CSS overflow-wrap: break-word, not anywhere, which also lets a squeezed column break inside words).
 */
const app = useBrowserAndServer();

const PAYEE = 'INTERNATIONAL SUPERMARKETS GROCERIES DELIVERY SERVICE';

/** The words of the element's text that start on one line and end on another. */
function wordsCutAcrossLines(element: Locator): Promise<string[]> {
  return element.evaluate((root) => {
    const cut: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) cut.push(match[0]);
      }
    }
    return cut;
  });
}

describe('Long payee names on a phone', () => {
  it('wrap between words in the transaction cards and the top payees', async () => {
    const session = await signedInPage(
      app.browser,
      app.server,
      1366,
      900,
      {},
      {
        path: '/transactions?startDate=2024-01-01&endDate=2024-01-31',
        before: async (user) => {
          const api = trpcApi(app.server, user.accessToken);
          await api.accounts.create.mutate({ name: 'Checking', type: 'checking' });
          for (const day of ['05', '06'])
            await api.transactions.create.mutate({
              postDate: `2024-01-${day}`,
              description: PAYEE,
              amount: -123456,
              category: 'Groceries',
              account: 'Checking',
            });
        },
      },
    );
    const { page, close } = session;
    await page.setViewportSize({ width: 390, height: 844 });
    const cards = page.getByRole('list', { name: 'Transactions' });
    const name = cards.getByText(PAYEE).first();
    await name.waitFor();
    expect((await name.boundingBox())?.height ?? 0).toBeGreaterThan(30);
    expect(await wordsCutAcrossLines(name)).toEqual([]);
    await expectNoSeriousA11yViolations(page, 'transaction cards with a long payee at 390 px');

    await page.goto(`${app.server.url}/reports?preset=Custom&startDate=2024-01-01&endDate=2024-01-31`);
    const payee = page.getByRole('table', { name: 'Top payees', exact: true }).getByText(PAYEE);
    await payee.waitFor();
    expect(await wordsCutAcrossLines(payee)).toEqual([]);
    await expectNoSeriousA11yViolations(page, 'top payees with a long payee at 390 px');
    await close();
  });
});
