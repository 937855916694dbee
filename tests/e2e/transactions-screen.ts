import type { Page } from 'playwright-core';
import { restDataClient } from '../helpers/rest-client';
import { formatCents } from '../../src/shared/money';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { useBrowserAndServer, trpcApi, signedInPage, type TrpcApi } from './harness';

export type Api = TrpcApi;

/**
 * The transaction screens of a file of tests: its server and browser (started before the file, closed after), a
 * seeded signed-in page, and locators.
 */
export function useTransactionsScreen() {
  const app = useBrowserAndServer();

  const apiFor = (token: string) => trpcApi(app.server, token);

  const SEED = [
    { postDate: '2024-01-05', description: 'Coffee Shop', amount: -450, category: 'Dining', account: 'Checking' },
    { postDate: '2024-01-10', description: 'Grocery Store', amount: -8235, category: 'Groceries', account: 'Checking' },
    { postDate: '2024-01-15', description: 'Paycheck', amount: 250000, category: 'Salary', account: 'Savings' },
    { postDate: '2024-02-01', description: 'Coffee Beans', amount: -1299, category: 'Groceries', account: 'Savings' },
    { postDate: '2024-02-10', description: 'Electric bill', amount: -6000, account: 'Checking' },
    { postDate: '2023-12-31', description: 'Old purchase', amount: -100, category: 'Dining', account: 'Checking' },
  ];

  /** A signed-in page whose user owns two accounts and the SEED transactions. */
  async function seededSession(width = 1400) {
    const session = await signedInPage(app.browser, app.server, width);
    const api = apiFor(session.user.accessToken);
    await api.accounts.create.mutate({ name: 'Checking', type: 'checking', balance: 0 });
    await api.accounts.create.mutate({ name: 'Savings', type: 'savings', balance: 0 });
    const rows: Record<string, TransactionDto> = {};
    for (const tx of SEED) rows[tx.description] = await api.transactions.create.mutate(tx);
    return { ...session, api, rest: restDataClient(app.server.url, session.user.accessToken), rows };
  }

  async function allTransactions(api: Api): Promise<TransactionDto[]> {
    return api.transactions.list.query({ startDate: '1900-01-01', endDate: '2100-12-31' });
  }

  /** Options of the open MUI listbox (native selects in the rows also hold options). */
  const pick = (page: Page) => page.getByRole('listbox');
  const banner = (page: Page) => page.getByText(/^Found \d+ transactions?( \(.*\))?$/);
  /** The folded filters' summary line (a button that opens the form). */
  const filterSummary = (page: Page) => page.getByRole('button', { name: /^Filters: / });

  /** Opens the filter form when it is folded into its summary line (as it is once a search has run). */
  async function openFilters(page: Page) {
    if ((await filterSummary(page).count()) > 0) await filterSummary(page).click();
    await page.getByLabel('Start Date').waitFor();
  }
  const table = (page: Page) => page.getByRole('table', { name: 'Transactions' });
  const rowLabel = (tx: TransactionDto) =>
    `${tx.description} ${formatCents(tx.amount)} on ${tx.postDate}${tx.parentTransactionId !== null ? ' (split part)' : ''}`;
  const checkbox = (page: Page, tx: TransactionDto) =>
    page.getByRole('checkbox', { name: `Select transaction ${rowLabel(tx)}`, exact: true });

  /** Waits for the answer of a search over exactly this date range. */
  function searchAnswer(page: Page, start: string, end: string) {
    return page.waitForResponse((res) => {
      const url = decodeURIComponent(res.url());
      return (
        url.includes('transactions.list') &&
        url.includes(`"startDate":"${start}"`) &&
        url.includes(`"endDate":"${end}"`)
      );
    });
  }

  async function search(page: Page, start = '2024-01-01', end = '2024-02-29') {
    // The URL carries the search's filters: compare the path only.
    if (new URL(page.url()).pathname !== '/transactions') {
      // With the form open: it folds into its summary line once a search has run (and Search folds it again).
      await page.goto(`${app.server.url}/transactions?filters=open`);
      await page.getByRole('heading', { name: 'Transaction Search', level: 1 }).waitFor();
      // It opens on this month and searches at once.
      await banner(page).waitFor();
    }
    await openFilters(page);
    const answered = searchAnswer(page, start, end);
    await page.getByLabel('Start Date').fill(start);
    await page.getByLabel('End Date').fill(end);
    await answered;
    await banner(page).waitFor();
  }

  async function bannerText(page: Page) {
    return (
      (await page
        .getByRole('status')
        .filter({ hasText: /^Found/ })
        .textContent()) ?? ''
    );
  }

  /** Description cells in display order (the chip text left out). */
  async function descriptions(page: Page): Promise<string[]> {
    return table(page)
      .locator('tbody tr[aria-rowindex]')
      .evaluateAll((rows) => rows.map((row) => row.children[2].querySelector('span[title]')?.textContent ?? ''));
  }
  return {
    app,
    apiFor,
    SEED,
    seededSession,
    allTransactions,
    pick,
    banner,
    filterSummary,
    openFilters,
    table,
    rowLabel,
    checkbox,
    searchAnswer,
    search,
    bannerText,
    descriptions,
  };
}
