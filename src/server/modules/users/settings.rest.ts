import { settingsAnswerSchema, settingsUpdateSchema } from '../../../shared/schemas/transfers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { getSettings, updateSettings } from './settings.service';

const TAG = 'Settings';

export const settingsRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/settings',
    tag: TAG,
    summary: "The signed-in user's settings",
    answer:
      '{ transferWindowDays, historyRetentionDays, trashRetentionDays, serverHistoryRetentionDays, serverTrashRetentionDays }',
    output: settingsAnswerSchema,
    handler: ({ em, userId, request }) => getSettings(em, userId, request.server.services.retention),
  }),
  restRoute({
    method: 'PUT',
    url: '/settings',
    tag: TAG,
    summary:
      "Change any of the settings: transferWindowDays (0-14: how many days apart import pairs the two sides of a transfer), historyRetentionDays and trashRetentionDays (1-3650 days the history keeps a change and the trash a deleted transaction; null: the server's)",
    body: settingsUpdateSchema,
    answer: 'The settings after the change',
    output: settingsAnswerSchema,
    handler: ({ em, userId, body, request }) => updateSettings(em, userId, body, request.server.services.retention),
  }),
];
