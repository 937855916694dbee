import { z } from 'zod';
import { DESCRIPTION_MAX_LENGTH, MAX_FILTER_CATEGORIES, NAME_MAX_LENGTH } from '../../../shared/limits';
import { readAmount } from '../../../shared/money';
import {
  batchIdSchema,
  bulkUpdateSchema,
  listLimitSchema,
  listOffsetSchema,
  createTransactionSchema,
  splitInputSchema,
  transactionFiltersSchema,
  updateTransactionSchema,
} from '../../../shared/schemas/transactions';
import { idParamsSchema, text } from '../../../shared/schemas/common';
import { deleteTransactionQuerySchema } from '../../../shared/schemas/transfers';
import { attachment } from '../../http/download';
import {
  batchAnswer,
  deletedBatchAnswer,
  fixSplitAnswer,
  messageAnswer,
  searchTotalAnswer,
  splitAnswer,
  transactionAnswer,
} from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { exportFileName, transactionsCsvStream } from './export-csv.service';
import { batchTransactions, deleteBatch, listBatches } from './batches.service';
import {
  bulkUpdateTransactions,
  createTransaction,
  deleteTransaction,
  fixSplitStatus,
  getSplits,
  getTransaction,
  searchTotal,
  searchTransactionsJson,
  splitTransaction,
  updateTransaction,
} from './transactions.service';
import { RawJson } from '../../http/raw-json';

const decimalAmount = (field: string) =>
  text({ max: 32 })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      const reading = readAmount(value, 'query');
      if (!reading.ok) {
        ctx.addIssue({
          code: 'custom',
          message: `${field} must be a decimal amount such as 12.50, at most 100,000,000,000.00`,
        });
        return z.NEVER;
      }
      return reading.cents;
    });

/** The wire names of GET /api/transactions, translated into the shared filters. */
export const transactionQuerySchema = z
  .object({
    start_date: text({ label: 'start_date', min: 1, max: 10 }),
    end_date: text({ label: 'end_date', min: 1, max: 10 }),
    // Comma-separated names.
    categories: text({ max: MAX_FILTER_CATEGORIES * (NAME_MAX_LENGTH + 1) }).optional(),
    account: text({ max: NAME_MAX_LENGTH }).optional(),
    description: text({ max: NAME_MAX_LENGTH, trim: false }).optional(),
    min_amount: decimalAmount('min_amount'),
    max_amount: decimalAmount('max_amount'),
    payee: text({ max: DESCRIPTION_MAX_LENGTH }).optional(),
    direction: text({ max: 10 }).optional(),
    counted: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
    category_source: text({ max: 16 }).optional(),
    limit: listLimitSchema.optional(),
    offset: listOffsetSchema.optional(),
  })
  .transform((query, ctx) => {
    const parsed = transactionFiltersSchema.safeParse({
      startDate: query.start_date,
      endDate: query.end_date,
      categories: query.categories
        ?.split(',')
        .map((name) => name.trim())
        .filter(Boolean),
      account: query.account?.trim() || undefined,
      description: query.description || undefined,
      minAmount: query.min_amount,
      maxAmount: query.max_amount,
      payee: query.payee?.trim() || undefined,
      direction: query.direction || undefined,
      counted: query.counted === undefined ? undefined : query.counted === 'true',
      categorySource: query.category_source || undefined,
      limit: query.limit,
      offset: query.offset,
    });
    if (!parsed.success) {
      const wire: Record<string, string> = {
        startDate: 'start_date',
        endDate: 'end_date',
        minAmount: 'min_amount',
        maxAmount: 'max_amount',
        categorySource: 'category_source',
      };
      for (const issue of parsed.error.issues) {
        const [head, ...rest] = issue.path;
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: [wire[String(head)] ?? head, ...rest] as PropertyKey[],
        });
      }
      return z.NEVER;
    }
    return parsed.data;
  });

/** `?confirmReconciled=true` confirms an edit of a reconciled row's amount or date. */
const confirmReconciledQuery = z
  .object({ confirmReconciled: z.enum(['true', 'false']).optional() })
  .transform((q) => ({ confirmReconciled: q.confirmReconciled === 'true' }));

const TAG = 'Transactions';

/** Optional paging of a list answer. */
const pageQuerySchema = z.object({ limit: listLimitSchema.optional(), offset: listOffsetSchema.optional() });

export const transactionRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/transactions',
    tag: TAG,
    summary:
      'Search transactions between two dates (newest first); at most 100,000 per answer, paged with limit and offset',
    query: transactionQuerySchema,
    answer: 'An array of transactions; X-Total-Count tells how many match',
    output: z.array(transactionAnswer),
    refusals: [422],
    // The read model scopes the read itself (on PostgreSQL one round trip outside a transaction).
    scopesItself: true,
    handler: async ({ em, userId, query, reply }) => {
      const page = await searchTransactionsJson(em, userId, query);
      reply.header('X-Total-Count', String(page.total));
      return new RawJson(page.json);
    },
  }),
  restRoute({
    method: 'GET',
    url: '/transactions/total',
    tag: TAG,
    summary:
      "The search's net (same filters): counted rows (split parts, never their originals), transfers between accounts left out, in the home currency; rows of other currencies converted at their own date's rate, those with no rate within 7 days counted in noRate and left out",
    query: transactionQuerySchema,
    answer: '{ net, currency, converted, count, noRate, transfersLeftOut }',
    output: searchTotalAnswer,
    handler: ({ em, userId, query }) => searchTotal(em, userId, query),
  }),
  restRoute({
    method: 'GET',
    url: '/transactions/export.csv',
    tag: TAG,
    summary:
      "The search as a CSV file (same filters; RFC 4180, UTF-8 with BOM; columns Date, Description, Amount, Category, Type, Account, Split (parent, part or empty), Split of (the ID of a part's original, always a row of the file: an original that did not match comes along at the end), Batch, ID; a sum of Amount leaves out the parent rows; formula cells guarded with a leading apostrophe). A browser link may sign in with ?access_token=<session access token>",
    query: transactionQuerySchema,
    download: { contentType: 'text/csv' },
    streamsAnswer: true,
    answer: 'text/csv, streamed',
    output: null,
    handler: async ({ em, userId, query, reply }) => {
      const stream = await transactionsCsvStream(em, userId, query);
      reply.type('text/csv; charset=utf-8').header('content-disposition', attachment(exportFileName(query)));
      return stream;
    },
  }),
  restRoute({
    method: 'POST',
    url: '/transactions',
    tag: TAG,
    summary: 'Create a transaction',
    body: createTransactionSchema,
    status: 201,
    answer: 'The created transaction',
    output: transactionAnswer,
    handler: ({ em, userId, body }) => createTransaction(em, userId, body),
  }),
  restRoute({
    method: 'PUT',
    url: '/transactions/bulk',
    tag: TAG,
    summary: 'Update category, type and/or account of many transactions (all or nothing)',
    body: bulkUpdateSchema,
    answer: 'An array of the updated transactions',
    output: z.array(transactionAnswer),
    handler: ({ em, userId, body }) => bulkUpdateTransactions(em, userId, body),
  }),
  restRoute({
    method: 'POST',
    url: '/transactions/fix-split-status',
    tag: TAG,
    summary: 'Clear the split flag on parents that have no parts left',
    answer: '{ message: number of transactions fixed, fixed }',
    output: fixSplitAnswer,
    handler: ({ em, userId }) => fixSplitStatus(em, userId),
  }),
  restRoute({
    method: 'GET',
    url: '/transactions/batches/list',
    tag: TAG,
    summary: 'List CSV upload batches, newest first',
    answer: 'An array of { batchId, transactionCount, uploadDate, account, fileName }',
    output: z.array(batchAnswer),
    handler: ({ em, userId }) => listBatches(em, userId),
  }),
  restRoute({
    method: 'GET',
    url: '/transactions/batches/:batchId/transactions',
    tag: TAG,
    summary: "A batch's transactions",
    params: batchIdSchema,
    query: pageQuerySchema,
    answer: 'An array of transactions; X-Total-Count tells how many the batch holds',
    output: z.array(transactionAnswer),
    refusals: [422],
    handler: async ({ em, userId, params, query, reply }) => {
      const page = await batchTransactions(em, userId, params.batchId, query);
      reply.header('X-Total-Count', String(page.total));
      return page.rows;
    },
  }),
  restRoute({
    method: 'DELETE',
    url: '/transactions/batches/:batchId',
    tag: TAG,
    summary: 'Delete a batch and all its transactions (the other sides of their transfers stay, unlinked)',
    params: batchIdSchema,
    answer: '{ message, deleted }',
    output: deletedBatchAnswer,
    handler: ({ em, userId, params, request }) =>
      deleteBatch(em, userId, params.batchId, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'GET',
    url: '/transactions/:id',
    tag: TAG,
    summary: 'One transaction',
    params: idParamsSchema,
    answer: 'The transaction',
    output: transactionAnswer,
    handler: ({ em, userId, params }) => getTransaction(em, userId, params.id),
  }),
  restRoute({
    method: 'PUT',
    url: '/transactions/:id',
    tag: TAG,
    summary:
      'Update any of postDate, description, amount, category, type, account, splitNote, memo, cleared (uncleared, cleared, reconciled). Changing the amount or date of a reconciled row needs ?confirmReconciled=true: without it the answer is 409 and nothing changes',
    params: idParamsSchema,
    query: confirmReconciledQuery,
    body: updateTransactionSchema,
    answer: 'The updated transaction',
    output: transactionAnswer,
    refusals: [409],
    handler: ({ em, userId, params, query, body }) =>
      updateTransaction(em, userId, params.id, body, { confirmReconciled: query.confirmReconciled }),
  }),
  restRoute({
    method: 'DELETE',
    url: '/transactions/:id',
    tag: TAG,
    summary:
      'Delete a transaction (a split parent takes its parts; a part unsplits its parent). One side of a transfer: ?withCounterpart=true deletes the other side too; false (the default) keeps it, unlinked',
    params: idParamsSchema,
    query: deleteTransactionQuerySchema,
    answer: '{ message }',
    output: messageAnswer,
    handler: ({ em, userId, params, query, request }) =>
      deleteTransaction(em, userId, params.id, {
        withCounterpart: query.withCounterpart,
        today: request.server.services.clock.today(),
      }),
  }),
  restRoute({
    method: 'POST',
    url: '/transactions/:id/split',
    tag: TAG,
    summary: 'Split a transaction into parts (replaces an existing split)',
    params: idParamsSchema,
    body: splitInputSchema,
    status: 201,
    answer: '{ parentTransaction, childTransactions }',
    output: splitAnswer,
    handler: ({ em, userId, params, body }) => splitTransaction(em, userId, params.id, body),
  }),
  restRoute({
    method: 'GET',
    url: '/transactions/:id/splits',
    tag: TAG,
    summary: 'The split a transaction belongs to (ask with the parent or any part)',
    params: idParamsSchema,
    answer: '{ parentTransaction, childTransactions }',
    output: splitAnswer,
    handler: ({ em, userId, params }) => getSplits(em, userId, params.id),
  }),
];
