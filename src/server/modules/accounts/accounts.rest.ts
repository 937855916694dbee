import { z } from 'zod';
import { createAccountSchema, netWorthInputSchema, updateAccountSchema } from '../../../shared/schemas/accounts';
import { idParamsSchema } from '../../../shared/schemas/common';
import {
  listPageSchema,
  reconcileBodySchema,
  registerRangeSchema,
  statementSchema,
} from '../../../shared/schemas/register';
import { accountAnswer, messageAnswer, netWorthAnswer, reconcileAnswer, registerRowAnswer } from '../../http/answers';
import { RawJson } from '../../http/raw-json';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { present, wholeNumberText, wireQuery } from '../../http/wire-query';
import { createAccount, deleteAccount, listAccounts, netWorth, updateAccount } from './accounts.service';
import { accountRegisterJson, adjustAccountBalance, reconcileAccount } from './register.service';

const registerQuerySchema = wireQuery(
  { start_date: z.string().optional(), end_date: z.string().optional(), ...listPageSchema.shape },
  registerRangeSchema.and(listPageSchema),
  (q) => ({ startDate: present(q.start_date), endDate: present(q.end_date), limit: q.limit, offset: q.offset }),
);

const statementQuerySchema = wireQuery(
  {
    statement_date: z.string({ error: 'statement_date is required' }),
    statement_balance: z.string({ error: 'statement_balance is required' }),
    ...listPageSchema.shape,
  },
  statementSchema.and(listPageSchema),
  (q) => ({
    statementDate: q.statement_date,
    statementBalance: wholeNumberText(q.statement_balance),
    limit: q.limit,
    offset: q.offset,
  }),
);

const netWorthQuerySchema = wireQuery(
  { months: z.string().optional(), end_date: z.string().optional() },
  netWorthInputSchema,
  (q) => ({ months: wholeNumberText(q.months), endDate: present(q.end_date) }),
);

/** A long list's page and its whole count, as REST sends them. */
const PAGED = 'X-Total-Count tells how many rows the whole list holds; over 100,000 only page by page (limit, offset)';

const TAG = 'Accounts';

export const accountRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/accounts',
    tag: TAG,
    summary: 'List accounts sorted by name',
    answer:
      'An array of { id, name, type, balance (opening balance plus counted transactions), openingBalance, openingDate, applySuggestions, lastImport }',
    output: z.array(accountAnswer),
    handler: ({ em, userId }) => listAccounts(em, userId),
  }),
  restRoute({
    method: 'GET',
    url: '/accounts/net-worth',
    tag: TAG,
    summary:
      'Net worth (every account: opening balance plus counted transactions) at the end of each of the last `months` months (default 12) up to the month of end_date (default today)',
    query: netWorthQuerySchema,
    answer: '{ points: [{ month, endDate, netWorth }] }, oldest month first',
    output: netWorthAnswer,
    handler: ({ em, userId, query, request }) => netWorth(em, userId, query, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'POST',
    url: '/accounts',
    tag: TAG,
    summary:
      'Create an account: openingBalance in cents (default 0) on openingDate (default today); applySuggestions (default true). Older clients may send balance instead of openingBalance',
    body: createAccountSchema,
    status: 201,
    answer: 'The created account',
    output: accountAnswer,
    handler: ({ em, userId, body, request }) => createAccount(em, userId, body, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'PUT',
    url: '/accounts/:id',
    tag: TAG,
    summary:
      'Update any of name, type, openingBalance, openingDate, applySuggestions; balance (instead of openingBalance) sets the opening balance that gives that balance now',
    params: idParamsSchema,
    body: updateAccountSchema,
    answer: 'The updated account',
    output: accountAnswer,
    handler: ({ em, userId, params, body }) => updateAccount(em, userId, params.id, body),
  }),
  restRoute({
    method: 'DELETE',
    url: '/accounts/:id',
    tag: TAG,
    summary: 'Delete an account that has no transactions (409 with the count otherwise)',
    params: idParamsSchema,
    answer: '{ message }',
    output: messageAnswer,
    handler: ({ em, userId, params }) => deleteAccount(em, userId, params.id),
  }),
  restRoute({
    method: 'GET',
    url: '/accounts/:id/register',
    tag: TAG,
    summary:
      "The account's transactions between start_date and end_date (both optional), newest first, with the balance after each (walking back from the account's balance, its opening balance plus its counted rows; split parts counted once)",
    params: idParamsSchema,
    query: registerQuerySchema,
    answer: `An array of transactions, each with runningBalance (cents); ${PAGED}`,
    output: z.array(registerRowAnswer),
    refusals: [422],
    handler: async ({ em, userId, params, query, reply }) => {
      const page = await accountRegisterJson(em, userId, params.id, query);
      reply.header('X-Total-Count', String(page.total));
      return new RawJson(page.json);
    },
  }),
  restRoute({
    method: 'GET',
    url: '/accounts/:id/reconcile',
    tag: TAG,
    summary: 'Compare the register with a bank statement: statement_date and statement_balance (integer cents)',
    params: idParamsSchema,
    query: statementQuerySchema,
    answer: `{ account, statementDate, statementBalance, registerBalance, difference, adjustedBalance, transactionsAfter }; ${PAGED} after the statement date`,
    output: reconcileAnswer,
    refusals: [422],
    handler: async ({ em, userId, params, query: { limit, offset, ...statement }, reply }) => {
      const { result, total } = await reconcileAccount(em, userId, params.id, statement, { limit, offset });
      reply.header('X-Total-Count', String(total));
      return result;
    },
  }),
  restRoute({
    method: 'POST',
    url: '/accounts/:id/reconcile',
    tag: TAG,
    summary:
      'Reconcile with a bank statement { statementDate, statementBalance, createAdjustment }: every cleared row up to the date becomes reconciled; a difference is refused (409, naming it) unless createAdjustment is true, which records an adjustment transaction of the difference on the statement date',
    params: idParamsSchema,
    query: listPageSchema,
    body: reconcileBodySchema,
    answer: `The reconciliation after it (difference 0) and reconciledRows, how many rows became reconciled; ${PAGED} after the statement date`,
    output: reconcileAnswer.extend({ reconciledRows: z.number().int() }),
    refusals: [409, 422],
    handler: async ({ em, userId, params, query, body, reply }) => {
      const { result, total, reconciledRows } = await adjustAccountBalance(em, userId, params.id, body, query);
      reply.header('X-Total-Count', String(total));
      return { ...result, reconciledRows };
    },
  }),
];
