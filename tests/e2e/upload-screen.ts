import type { AccountType } from '../../src/shared/schemas/accounts';
import { restDataClient } from '../helpers/rest-client';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { useBrowserAndServer, trpcApi, signedInPage, type TrpcApi } from './harness';

export type Api = TrpcApi;

/**
 * The Upload screen of a file of tests: its server and browser (started before the file, closed after), a
 * signed-in page on the screen, and locators.
 */
export function useUploadScreen() {
  const app = useBrowserAndServer();

  const BANK_FIXTURES = path.resolve('../shared/fixtures/bank-csv');
  const OWN_FIXTURES = path.resolve('tests/fixtures/csv');
  /** Chase's export: 8 rows, M/D/YYYY dates, categories, summing to -299.68. */
  const CHASE = path.join(BANK_FIXTURES, 'chase-credit-card.csv');

  const apiFor = (token: string) => trpcApi(app.server, token);

  async function allTransactions(api: Api) {
    return api.transactions.list.query({ startDate: '1900-01-01', endDate: '2100-12-31' });
  }

  async function openUpload(width = 1400, accounts: { name: string; type: AccountType }[] = []) {
    const session = await signedInPage(
      app.browser,
      app.server,
      width,
      900,
      {},
      {
        path: '/upload',
        before: async (user) => {
          for (const account of accounts)
            await apiFor(user.accessToken).accounts.create.mutate({ ...account, balance: 0 });
        },
      },
    );
    await session.page.getByRole('heading', { name: 'Upload CSV' }).waitFor();
    const token = session.user.accessToken;
    return { ...session, api: apiFor(token), rest: restDataClient(app.server.url, token) };
  }

  /** An MUI select by its label (its accessible name also holds the chosen value). */
  const selectBox = (page: Page, label: string) =>
    page.getByRole('combobox', { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`) });

  /** Picks an option of an MUI select by its label. */
  async function choose(page: Page, label: string, option: string) {
    await selectBox(page, label).click();
    await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  }

  const uploadForm = (page: Page) => page.getByRole('form', { name: 'Upload CSV' });
  const uploadButton = (page: Page) => uploadForm(page).getByRole('button', { name: 'Upload', exact: true });
  const previewRows = (page: Page) =>
    page.getByRole('table', { name: 'Rows as they will be stored' }).locator('tbody tr');
  const batchRows = (page: Page) =>
    page
      .getByRole('table', { name: 'Transaction batches' })
      .locator('tbody tr')
      .or(page.getByRole('list', { name: 'Transaction batches' }).getByRole('listitem'));
  return {
    app,
    BANK_FIXTURES,
    OWN_FIXTURES,
    CHASE,
    apiFor,
    allTransactions,
    openUpload,
    selectBox,
    choose,
    uploadForm,
    uploadButton,
    previewRows,
    batchRows,
  };
}
