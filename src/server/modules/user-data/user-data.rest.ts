import { userDataDocumentSchema } from '../../../shared/schemas/user-data';
import { attachment } from '../../http/download';
import { userDataImportAnswer } from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { streamedBody } from '../../http/streamed-body';
import { exportUserData, importUserData } from './user-data.service';

const TAG = 'Your data';

export const userDataRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/export',
    tag: TAG,
    summary:
      'All your data as one versioned JSON document (accounts, categories, batches, transactions with splits, budgets with line items, envelopes). A browser link may sign in with ?access_token=<session access token>',
    download: { contentType: 'application/json' },
    answer:
      '{ format: "budget-tracker", version: 1, exportedAt, accounts, categories, batches, transactions, budgets, envelopes }',
    output: userDataDocumentSchema,
    handler: async ({ em, userId, reply }) => {
      const doc = await exportUserData(em, userId);
      reply.header('content-disposition', attachment(`budget-tracker-export-${doc.exportedAt.slice(0, 10)}.json`));
      return doc;
    },
  }),
  restRoute({
    method: 'POST',
    url: '/import',
    tag: TAG,
    summary:
      'Restore a document of GET /api/export into a user that has no data yet (409 otherwise); all or nothing; rows get new ids, every relation is kept; one restore at a time per server (429 while another runs). Body limit RESTORE_LIMIT_BYTES',
    body: userDataDocumentSchema,
    // Read as it arrives: a document of tens of megabytes is never parsed in one call.
    streamsBody: true,
    scopesItself: true,
    refusals: [429],
    status: 201,
    answer:
      '{ message, imported: { accounts, categories, batches, transactions, budgets, lineItems, envelopes, rules, schedules, planAssigned, planMoves, planHolds } }',
    output: userDataImportAnswer,
    handler: ({ em, userId, request, reply }) =>
      importUserData(em, userId, streamedBody(request, reply, request.server.config.restoreLimitBytes), {
        spoolDir: request.server.config.dataDir,
      }),
  }),
];
