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
    answer: '{ transferWindowDays }',
    output: settingsAnswerSchema,
    handler: ({ em, userId }) => getSettings(em, userId),
  }),
  restRoute({
    method: 'PUT',
    url: '/settings',
    tag: TAG,
    summary:
      'Change any of the settings: transferWindowDays (0-14: how many days apart import pairs the two sides of a transfer)',
    body: settingsUpdateSchema,
    answer: 'The settings after the change',
    output: settingsAnswerSchema,
    handler: ({ em, userId, body }) => updateSettings(em, userId, body),
  }),
];
