import { z } from 'zod';
import { idParamsSchema, text } from '../../../shared/schemas/common';
import { createEnvelopeSchema, envelopeRangeSchema, updateEnvelopeSchema } from '../../../shared/schemas/envelopes';
import { envelopeAnswer, messageAnswer } from '../../http/answers';
import { jsonArrayOfRaw, jsonWithRawParts, RawJson } from '../../http/raw-json';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { createEnvelope, deleteEnvelope, envelopeFields, envelopesParts, updateEnvelope } from './envelopes.service';

const TAG = 'Envelopes';

const rangeQuerySchema = z
  .object({ start_date: text({ max: 10 }).optional(), end_date: text({ max: 10 }).optional() })
  .transform((query, ctx) => {
    const parsed = envelopeRangeSchema.safeParse({
      startDate: query.start_date || undefined,
      endDate: query.end_date || undefined,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'startDate' ? 'start_date' : 'end_date';
        ctx.addIssue({ code: 'custom', message: issue.message, path: [field] });
      }
      return z.NEVER;
    }
    return parsed.data;
  });

export const envelopeRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/envelopes',
    tag: TAG,
    summary: 'Every envelope with its transactions (optionally between start_date and end_date), count and total',
    query: rangeQuerySchema,
    answer: 'An array of { id, name, description, categories, color, isActive, transactions, transactionCount, total }',
    output: z.array(envelopeAnswer),
    refusals: [422],
    handler: async ({ em, userId, query }) => {
      const envelopes = await envelopesParts(em, userId, query);
      return jsonArrayOfRaw(
        envelopes.map((parts) => jsonWithRawParts(envelopeFields(parts, new RawJson(parts.transactionsJson)))),
      );
    },
  }),
  restRoute({
    method: 'POST',
    url: '/envelopes',
    tag: TAG,
    summary: 'Create an envelope (colour #RRGGBB, default #4CAF50)',
    body: createEnvelopeSchema,
    status: 201,
    answer: 'The created envelope',
    output: envelopeAnswer,
    handler: ({ em, userId, body }) => createEnvelope(em, userId, body),
  }),
  restRoute({
    method: 'PUT',
    url: '/envelopes/:id',
    tag: TAG,
    summary: 'Update any of name, description, categories, color, isActive',
    params: idParamsSchema,
    body: updateEnvelopeSchema,
    answer: 'The updated envelope',
    output: envelopeAnswer,
    handler: ({ em, userId, params, body }) => updateEnvelope(em, userId, params.id, body),
  }),
  restRoute({
    method: 'DELETE',
    url: '/envelopes/:id',
    tag: TAG,
    summary: 'Delete an envelope (transactions are linked by category and stay unchanged)',
    params: idParamsSchema,
    answer: '{ message }',
    output: messageAnswer,
    handler: ({ em, userId, params }) => deleteEnvelope(em, userId, params.id),
  }),
];
