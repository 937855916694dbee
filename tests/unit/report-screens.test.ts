import { describe, expect, it } from 'vitest';
import { resolveRegisterRange } from '../../src/client/features/accounts/registerSearch';
import { resolveReportSearch } from '../../src/client/features/reports/reportSearch';
import { EMPTY_FORM } from '../../src/client/features/transactions/searchForm';
import type { SearchForm } from '../../src/client/features/transactions/searchForm';
import {
  exportCsvPath,
  extraFilterLabels,
  readTransactionSearch,
  searchOfForm,
  transactionSearchOf,
  type ExtraFilters,
  type TransactionSearch,
} from '../../src/client/features/transactions/searchParams';
import { tokenExpiry } from '../../src/client/lib/download';
import type { TransactionFilters } from '../../src/shared/schemas/transactions';

describe('Transactions search params', () => {
  const today = '2024-05-17';
  const thisMonth = { ...EMPTY_FORM, startDate: '2024-05-01', endDate: '2024-05-31' };
  it.each<[string, unknown, ReturnType<typeof readTransactionSearch>]>([
    ['no params: a first visit searches this month', {}, { form: thisMonth, extras: {} }],
    ['empty dates: a cleared form', { startDate: '', endDate: '' }, { form: EMPTY_FORM, extras: {} }],
    [
      'one date only: the form waits for the other',
      { startDate: '2024-01-01' },
      { form: { ...EMPTY_FORM, startDate: '2024-01-01' }, extras: {} },
    ],
    [
      'a category bar',
      { startDate: '2024-02-01', endDate: '2024-02-29', categories: ['Dining'], counted: true },
      {
        form: { ...EMPTY_FORM, startDate: '2024-02-01', endDate: '2024-02-29', categories: ['Dining'] },
        extras: { counted: true },
      },
    ],
    [
      'a payee with an account',
      { startDate: '2024-01-01', endDate: '2024-03-31', account: 'Checking', payee: 'TESCO STORES', counted: true },
      {
        form: { ...EMPTY_FORM, startDate: '2024-01-01', endDate: '2024-03-31', account: 'Checking' },
        extras: { payee: 'TESCO STORES', counted: true },
      },
    ],
    [
      'amounts as typed and suggested categories only',
      {
        startDate: '2024-01-01',
        endDate: '2024-01-31',
        minAmount: '10,50',
        maxAmount: '200',
        categorySource: 'suggested',
      },
      {
        form: {
          ...EMPTY_FORM,
          startDate: '2024-01-01',
          endDate: '2024-01-31',
          minAmount: '10,50',
          maxAmount: '200',
          categorySource: 'suggested',
        },
        extras: {},
      },
    ],
    [
      'params that do not read are dropped, the rest kept',
      {
        startDate: '2024-01-01',
        endDate: '2024-01-31',
        direction: 'sideways',
        counted: 'yes',
        categories: 'Dining',
        description: 'cafe',
        categorySource: 'rule',
      },
      { form: { ...EMPTY_FORM, startDate: '2024-01-01', endDate: '2024-01-31', description: 'cafe' }, extras: {} },
    ],
    [
      'an impossible date is dropped',
      { startDate: '2024-02-30', endDate: '2024-03-31' },
      { form: { ...EMPTY_FORM, endDate: '2024-03-31' }, extras: {} },
    ],
  ])('%s', (_name, raw, expected) => expect(readTransactionSearch(raw, today)).toEqual(expected));

  it('a link made from filters reads back as the same filters', () => {
    const filters: TransactionFilters = {
      startDate: '2024-02-01',
      endDate: '2024-02-29',
      categories: ['A', 'Uncategorized'],
      account: 'Card',
      direction: 'out',
      counted: true,
    };
    const read = readTransactionSearch(transactionSearchOf(filters), today);
    expect({
      startDate: read.form.startDate,
      endDate: read.form.endDate,
      categories: read.form.categories,
      account: read.form.account,
      ...read.extras,
    }).toEqual(filters);
  });

  it.each<[string, SearchForm, ExtraFilters, TransactionSearch]>([
    ['this month and nothing else: a clean URL', thisMonth, {}, {}],
    ['a cleared form: empty dates', EMPTY_FORM, {}, { startDate: '', endDate: '' }],
    [
      'every field',
      {
        startDate: '2024-01-01',
        endDate: '2024-01-31',
        categories: ['Dining'],
        account: 'Card',
        description: 'cafe',
        minAmount: '5',
        maxAmount: '9.99',
        categorySource: 'suggested',
      },
      { payee: 'CAFE', direction: 'out', counted: true },
      {
        startDate: '2024-01-01',
        endDate: '2024-01-31',
        categories: ['Dining'],
        account: 'Card',
        description: 'cafe',
        minAmount: '5',
        maxAmount: '9.99',
        categorySource: 'suggested',
        payee: 'CAFE',
        direction: 'out',
        counted: true,
      },
    ],
    [
      "this month's dates with a filter keep the dates",
      { ...thisMonth, description: 'rent' },
      {},
      { startDate: '2024-05-01', endDate: '2024-05-31', description: 'rent' },
    ],
  ])('the URL of %s reads back as the same search', (_name, form, extras, search) => {
    expect(searchOfForm(form, extras, today)).toEqual(search);
    expect(readTransactionSearch(search, today)).toEqual({ form, extras });
  });

  it.each([
    [{}, []],
    [{ payee: 'Cafe Luna' }, ['Payee: Cafe Luna']],
    [{ direction: 'in' as const, counted: true }, ['Money in only', 'Split parents left out (as report totals count)']],
    [{ direction: 'out' as const }, ['Money out only']],
  ])('labels %j', (extras, labels) => expect(extraFilterLabels(extras).map((l) => l.label)).toEqual(labels));

  it.each<[TransactionFilters, string]>([
    [{ startDate: '2024-03-01', endDate: '2024-03-31' }, 'start_date=2024-03-01&end_date=2024-03-31'],
    [
      {
        startDate: '2024-03-01',
        endDate: '2024-03-31',
        categories: ['Dining', 'Uncategorized'],
        account: 'My Card',
        description: 'a&b',
        minAmount: 1050,
        maxAmount: 200000,
      },
      'start_date=2024-03-01&end_date=2024-03-31&categories=Dining%2CUncategorized&account=My+Card&description=a%26b&min_amount=10.50&max_amount=2000.00',
    ],
    [
      { startDate: '2024-03-01', endDate: '2024-03-31', payee: 'TESCO STORES', direction: 'out', counted: true },
      'start_date=2024-03-01&end_date=2024-03-31&payee=TESCO+STORES&direction=out&counted=true',
    ],
  ])('export link %#', (filters, query) =>
    expect(exportCsvPath(filters)).toBe(`/api/transactions/export.csv?${query}`),
  );
});

describe('Reports search params', () => {
  const today = '2026-11-25';
  it.each([
    [
      {},
      {
        preset: 'Last 12 months',
        startDate: '2025-12-01',
        endDate: '2026-11-30',
        account: undefined,
        table: false,
        problem: null,
      },
    ],
    [
      { preset: 'This year' as const, table: true },
      {
        preset: 'This year',
        startDate: '2026-01-01',
        endDate: '2026-11-30',
        account: undefined,
        table: true,
        problem: null,
      },
    ],
    [
      { preset: 'Last year' as const, account: 'Card' },
      {
        preset: 'Last year',
        startDate: '2025-01-01',
        endDate: '2025-12-31',
        account: 'Card',
        table: false,
        problem: null,
      },
    ],
    [
      { preset: 'Custom' as const, startDate: '2024-01-15', endDate: '2024-03-10' },
      {
        preset: 'Custom',
        startDate: '2024-01-15',
        endDate: '2024-03-10',
        account: undefined,
        table: false,
        problem: null,
      },
    ],
    [
      { preset: 'Custom' as const, startDate: '2024-01-15' },
      {
        preset: 'Custom',
        startDate: '2024-01-15',
        endDate: '',
        account: undefined,
        table: false,
        problem: 'Choose a start and an end date',
      },
    ],
    [
      { preset: 'Custom' as const, startDate: '2024-05-01', endDate: '2024-03-10' },
      {
        preset: 'Custom',
        startDate: '2024-05-01',
        endDate: '2024-03-10',
        account: undefined,
        table: false,
        problem: 'End Date must not be before Start Date',
      },
    ],
  ])('%j', (search, resolved) => expect(resolveReportSearch(search, today)).toEqual(resolved));
});

describe('Register search params', () => {
  const today = '2024-05-17';
  it.each([
    [{}, { range: 'Last 12 months', startDate: '2023-06-01', endDate: '2024-05-31' }],
    [{ range: 'All' as const }, { range: 'All' }],
    [{ range: 'Last year' as const }, { range: 'Last year', startDate: '2023-01-01', endDate: '2023-12-31' }],
    [
      { range: 'Custom' as const, startDate: '2024-01-01' },
      { range: 'Custom', startDate: '2024-01-01', endDate: undefined },
    ],
  ])('%j', (search, resolved) => expect(resolveRegisterRange(search, today)).toEqual(resolved));
});

describe('tokenExpiry', () => {
  const jwt = (payload: object) => `x.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.y`;
  it.each([
    [jwt({ sub: 1, exp: 1_900_000_000 }), 1_900_000_000],
    [jwt({ sub: 1 }), null],
    ['not-a-token', null],
    ['a.%%%.b', null],
  ])('%s', (token, exp) => expect(tokenExpiry(token)).toBe(exp));
});
