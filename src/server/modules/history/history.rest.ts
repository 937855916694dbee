import { z } from 'zod';
import { idParamsSchema } from '../../../shared/schemas/common';
import {
  historyListAnswer,
  historyPageSchema,
  trashItemAnswer,
  trashRestoreSchema,
  undoAnswer,
} from '../../../shared/schemas/history';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { listHistory, redoEntry, undoEntry } from './history.service';
import { emptyTrash, listTrash, restoreFromTrash } from './trash.service';

const HISTORY = 'History';

export const historyRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/history',
    tag: HISTORY,
    summary:
      'Your changes, newest first (limit 1-200, default 50; offset): who, when, what kind, a one-line summary and the rows each touched as they were before and after (the first 20 of each; the rest counted in moreRows). The last 100 can be undone.',
    query: historyPageSchema,
    answer:
      '{ entries: [{ id, createdAt, kind, summary, state, rowCount, undoable, readOnlyReason, rows, moreRows }], hasMore }',
    output: historyListAnswer,
    handler: ({ em, userId, query, request }) => listHistory(em, userId, query, request.server.services.retention),
  }),
  restRoute({
    method: 'POST',
    url: '/history/:id/undo',
    tag: HISTORY,
    summary:
      'Puts every row the change touched back as it was. Refused (409, nothing changed, naming the rows) when a row changed since: undo the later changes first.',
    params: idParamsSchema,
    refusals: [409],
    answer: '{ entry, message }',
    output: undoAnswer,
    handler: ({ em, userId, params, request }) =>
      undoEntry(em, userId, params.id, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'POST',
    url: '/history/:id/redo',
    tag: HISTORY,
    summary:
      'Applies an undone change again. Refused (409, nothing changed) when a row it touched changed since the undo.',
    params: idParamsSchema,
    refusals: [409],
    answer: '{ entry, message }',
    output: undoAnswer,
    handler: ({ em, userId, params, request }) =>
      redoEntry(em, userId, params.id, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'GET',
    url: '/trash',
    tag: HISTORY,
    summary:
      'Deleted transactions waiting in the trash (kept 30 days by default), newest first, with when they were deleted and by which history entry. Totals, reports and searches never count them.',
    answer: 'An array of trashed transactions',
    output: z.array(trashItemAnswer),
    handler: ({ em, userId, request }) => listTrash(em, userId, request.server.services.retention),
  }),
  restRoute({
    method: 'POST',
    url: '/trash/restore',
    tag: HISTORY,
    summary: 'Brings trashed transactions back with their split parts, category and batch (recorded as a change).',
    body: trashRestoreSchema,
    refusals: [409],
    answer: '{ message, restored }',
    output: z.object({ message: z.string(), restored: z.number().int() }),
    handler: ({ em, userId, body }) => restoreFromTrash(em, userId, body),
  }),
  restRoute({
    method: 'DELETE',
    url: '/trash',
    tag: HISTORY,
    summary:
      'Empties the trash: its transactions are deleted for good and the changes that deleted them can no longer be undone.',
    answer: '{ message, deleted }',
    output: z.object({ message: z.string(), deleted: z.number().int() }),
    handler: ({ em, userId }) => emptyTrash(em, userId),
  }),
];
