import { z } from 'zod';
import { idParamsSchema } from '../../../shared/schemas/common';
import { listLimitSchema, listOffsetSchema } from '../../../shared/schemas/transactions';
import {
  createTransferSchema,
  linkTransferSchema,
  transferAnswerSchema,
  transferCandidateAnswerSchema,
} from '../../../shared/schemas/transfers';
import { messageAnswer } from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import {
  acceptCandidate,
  createTransfer,
  dismissCandidate,
  getTransfer,
  linkTransactions,
  listCandidates,
  unlinkTransfer,
} from './transfers.service';

const TAG = 'Transfers';

const candidatePageSchema = z.object({
  limit: listLimitSchema.pipe(z.number().max(1000, 'limit must be at most 1000')).optional(),
  offset: listOffsetSchema.optional(),
});

export const transferRoutes: RestRoute[] = [
  restRoute({
    method: 'POST',
    url: '/transfers',
    tag: TAG,
    summary:
      'Move money between two accounts: { fromAccount, toAccount (id or name), amount (cents, more than 0), date, toDate? (the day it arrives; default date), description? } creates both sides, linked, in one transaction',
    body: createTransferSchema,
    status: 201,
    answer: '{ transferId, from, to }: the transfer with both sides (money out first)',
    output: transferAnswerSchema,
    handler: ({ em, userId, body }) => createTransfer(em, userId, body),
  }),
  restRoute({
    method: 'POST',
    url: '/transfers/link',
    tag: TAG,
    summary:
      'Link two existing transactions as one transfer { transactionIds: [a, b] }: two accounts, opposite amounts, neither linked yet (400 otherwise; 409 when one is already linked)',
    body: linkTransferSchema,
    status: 201,
    answer: '{ transferId, from, to }',
    output: transferAnswerSchema,
    refusals: [409],
    handler: ({ em, userId, body }) => linkTransactions(em, userId, body.transactionIds),
  }),
  restRoute({
    method: 'GET',
    url: '/transfers/candidates',
    tag: TAG,
    summary:
      'The pairs import found and offers as transfers (open ones, surest first), each with a score (0-100) and the reason; at most 200 per answer unless limit says more (up to 1000)',
    query: candidatePageSchema,
    answer: 'An array of { id, score, reason, from, to }; X-Total-Count tells how many are open',
    output: z.array(transferCandidateAnswerSchema),
    handler: async ({ em, userId, query, reply }) => {
      const page = await listCandidates(em, userId, query);
      reply.header('X-Total-Count', String(page.total));
      return page.rows;
    },
  }),
  restRoute({
    method: 'POST',
    url: '/transfers/candidates/:id/accept',
    tag: TAG,
    summary: 'Link an offered pair as a transfer',
    params: idParamsSchema,
    status: 201,
    answer: '{ transferId, from, to }',
    output: transferAnswerSchema,
    refusals: [409],
    handler: ({ em, userId, params }) => acceptCandidate(em, userId, params.id),
  }),
  restRoute({
    method: 'POST',
    url: '/transfers/candidates/:id/dismiss',
    tag: TAG,
    summary: 'Dismiss an offered pair: it is never offered again',
    params: idParamsSchema,
    answer: '{ message }',
    output: messageAnswer,
    refusals: [409],
    handler: ({ em, userId, params }) => dismissCandidate(em, userId, params.id),
  }),
  restRoute({
    method: 'GET',
    url: '/transfers/:id',
    tag: TAG,
    summary: 'One transfer with both sides',
    params: idParamsSchema,
    answer: '{ transferId, from, to }',
    output: transferAnswerSchema,
    handler: ({ em, userId, params }) => getTransfer(em, userId, params.id),
  }),
  restRoute({
    method: 'DELETE',
    url: '/transfers/:id',
    tag: TAG,
    summary: 'Unlink a transfer: both transactions stay, each in its own account, no longer linked',
    params: idParamsSchema,
    answer: '{ message }',
    output: messageAnswer,
    handler: ({ em, userId, params }) => unlinkTransfer(em, userId, params.id),
  }),
];
