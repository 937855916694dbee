import { idParamsSchema } from '../../../shared/schemas/common';
import { importProfileInputSchema } from '../../../shared/schemas/import';
import { importProfileAnswer, messageAnswer } from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { deleteImportProfile, getImportProfile, putImportProfile } from './import-profile.service';

const TAG = 'Import';

/** An account's import profile: the column mapping its files are read with. */
export const importProfileRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/accounts/:id/import-profile',
    tag: TAG,
    summary: "The account's saved column mapping (404 when it has none)",
    params: idParamsSchema,
    answer: '{ accountId, mapping, columnCount, headers, updatedAt }',
    output: importProfileAnswer,
    handler: ({ em, userId, params }) => getImportProfile(em, userId, params.id),
  }),
  restRoute({
    method: 'PUT',
    url: '/accounts/:id/import-profile',
    tag: TAG,
    summary:
      "Save the account's column mapping: { mapping: {header, date, description, amount | debit, credit, category?, dateFormat?}, columnCount, headers? }",
    params: idParamsSchema,
    body: importProfileInputSchema,
    answer: '{ accountId, mapping, columnCount, headers, updatedAt }',
    output: importProfileAnswer,
    handler: ({ em, userId, params, body }) => putImportProfile(em, userId, params.id, body),
  }),
  restRoute({
    method: 'DELETE',
    url: '/accounts/:id/import-profile',
    tag: TAG,
    summary: "Forget the account's column mapping",
    params: idParamsSchema,
    answer: '{ message }',
    output: messageAnswer,
    handler: ({ em, userId, params }) => deleteImportProfile(em, userId, params.id),
  }),
];
