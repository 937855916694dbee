import type { Locator, Page } from 'playwright-core';
import { useBrowserAndServer, trpcApi, screenshotAndCheckWidth, signedInPage, type TrpcApi } from './harness';

export type Api = TrpcApi;

/**
 * The Envelopes screen of a file of tests: its server and browser (started before the file, closed after), a
 * seeded signed-in page, and locators.
 */
export function useEnvelopesScreen() {
  const app = useBrowserAndServer();

  const apiFor = (token: string) => trpcApi(app.server, token);

  /**
   * Hand-computed expectations (cents):
   * - Groceries (any case): -1234 -2550 -799 = -4583; in February only -799.
   * - Dining: -1800 -6420 = -8220; in February only -6420.
   * - Food = Groceries + Dining: -12803 ($128.03, 5 transactions); February -7219 ($72.19, 2).
   * - Income = Salary + Refunds: 250000 + 500 = 250500 ($2,505.00, 2); February 500 ($5.00, 1).
   * - 'Travel' matches nothing: $0.00, 0 transactions.
   */
  const SEED = [
    { postDate: '2024-01-05', description: 'Supermarket', amount: -1234, category: 'Groceries' },
    { postDate: '2024-01-12', description: 'Pizza', amount: -1800, category: 'Dining' },
    { postDate: '2024-01-20', description: 'Farmers market', amount: -2550, category: 'groceries' },
    { postDate: '2024-01-31', description: 'Paycheck', amount: 250000, category: 'Salary' },
    { postDate: '2024-02-03', description: 'Bakery', amount: -799, category: 'Groceries' },
    { postDate: '2024-02-14', description: 'Valentine dinner', amount: -6420, category: 'Dining' },
    { postDate: '2024-02-15', description: 'Refund', amount: 500, category: 'Refunds' },
    { postDate: '2024-03-02', description: 'Bookshop', amount: -2000, category: 'Books' },
  ];

  async function seededSession(
    width = 1400,
    envelopes: { name: string; categories: string[]; color?: string; description?: string }[] = [],
  ) {
    const session = await signedInPage(
      app.browser,
      app.server,
      width,
      900,
      {},
      {
        path: '/envelopes',
        before: async (user) => {
          const api = apiFor(user.accessToken);
          for (const tx of SEED) await api.transactions.create.mutate(tx);
          for (const envelope of envelopes) await api.envelopes.create.mutate(envelope);
        },
      },
    );
    await session.page.getByRole('heading', { name: /^Envelopes \(\d+\)$/, level: 1 }).waitFor();
    return { ...session, api: apiFor(session.user.accessToken) };
  }

  const STANDARD = [
    { name: 'Food', categories: ['Groceries', 'Dining'], description: 'Eating in and out' },
    { name: 'Income', categories: ['Salary', 'Refunds'], color: '#2196F3' },
    { name: 'Travel', categories: ['Travel'], color: '#FF9800' },
  ];

  const heading = (page: Page) => page.getByRole('heading', { level: 1 });
  const card = (page: Page, name: string) =>
    page.getByRole('list', { name: 'Envelopes' }).getByRole('listitem', { name, exact: true });
  const cardNames = (page: Page) =>
    page.getByRole('list', { name: 'Envelopes' }).locator(':scope > li h2').allTextContents();
  const openButton = (c: Locator) => c.getByRole('button').first();
  const tags = (c: Locator) => c.locator('.MuiChip-label').allTextContents();
  const formDialog = (page: Page, title: 'Create Envelope' | 'Edit Envelope') =>
    page.getByRole('dialog', { name: title });
  const transactionsSection = (page: Page, name: string) =>
    page.getByRole('region', { name: `Transactions in ${name}` });

  /** Full-page screenshots from the top: a scrolled page would draw the sticky navigation bar mid-page. */
  async function screenshotFromTop(page: Page, name: string) {
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshotAndCheckWidth(page, name);
  }

  /** The total shown on a card and whether it is red (red channel clearly above green). */
  async function total(c: Locator): Promise<{ text: string; red: boolean }> {
    const amount = c.locator('[data-negative]');
    const text = (await amount.textContent()) ?? '';
    const [r, g] = (await amount.evaluate((el) => getComputedStyle(el).color)).match(/\d+/g)!.map(Number);
    return { text, red: r > g + 60 };
  }

  async function envelopesOf(api: Api, range?: { startDate?: string; endDate?: string }) {
    return api.envelopes.list.query(range);
  }

  async function tableDescriptions(section: Locator): Promise<string[]> {
    return section
      .getByRole('table', { name: 'Transactions' })
      .locator('tbody tr[aria-rowindex]')
      .evaluateAll((rows) => rows.map((row) => row.children[2].querySelector('span[title]')?.textContent ?? ''));
  }
  return {
    app,
    apiFor,
    SEED,
    seededSession,
    STANDARD,
    heading,
    card,
    cardNames,
    openButton,
    tags,
    formDialog,
    transactionsSection,
    screenshotFromTop,
    total,
    envelopesOf,
    tableDescriptions,
  };
}
