import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import {
  rateAnswerSchema,
  rateImportAnswerSchema,
  rateInputSchema,
  rateKeySchema,
  ratePairSchema,
  rateQuerySchema,
} from '../../../shared/schemas/rates';
import { messageAnswer } from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { readUpload } from '../import/import.rest';
import { deleteRate, importRates, listRatePairs, lookupRate, putRate } from './rates.service';

const TAG = 'Rates';
const SHARED = 'Rates are shared by every user of the instance; any signed-in user may change them.';

/** POST /api/rates reads a multipart body, as POST /api/upload does, so it is registered beside it. */
export const rateImportRoute: RestRoute = restRoute({
  method: 'POST',
  url: '/rates',
  tag: TAG,
  summary: `Import a rates file (multipart, field file): the ECB's eurofxref-hist.csv or eurofxref.csv, their XML, or a CSV with the header date,base,quote,rate. A stored rate of the same pair and date is replaced. ${SHARED}`,
  body: z.object({ file: z.string().describe('the rates file') }),
  bodyType: 'multipart/form-data',
  status: 201,
  answer: '{ message, format, imported, firstDate, lastDate, currencies, ignoredCurrencies, skipped }',
  output: rateImportAnswerSchema,
  refusals: [422],
  handler: async ({ em, request }) => {
    const upload = await readUpload(request, request.server.config.uploadLimitBytes, []);
    if (!upload.bytes) throw new AppError('BAD_REQUEST', 'file: choose a rates file to upload');
    return importRates(em, new TextDecoder().decode(upload.bytes));
  },
});

export const rateRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/rates',
    tag: TAG,
    summary:
      'The rate that converts base into quote on date (default today): the latest stored on or before it, at most 7 days older, direct, inverted or crossed through a common base (EUR for ECB rates); 404 when there is none',
    query: rateQuerySchema,
    answer: '{ base, quote, date, rateDate, rate, via }',
    output: rateAnswerSchema,
    handler: ({ em, query, request }) => lookupRate(em, query, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'GET',
    url: '/rates/pairs',
    tag: TAG,
    summary: 'The stored currency pairs: how many rates each has, their first and last date and the last rate',
    answer: 'An array of { base, quote, count, firstDate, lastDate, lastRate }',
    output: z.array(ratePairSchema),
    handler: ({ em }) => listRatePairs(em),
  }),
  restRoute({
    method: 'PUT',
    url: '/rates',
    tag: TAG,
    summary: `Set one rate: one base is rate units of quote on date (replaces a stored one). ${SHARED}`,
    body: rateInputSchema,
    answer: '{ date, base, quote, rate }',
    output: z.object({ date: z.string(), base: z.string(), quote: z.string(), rate: z.string() }),
    handler: ({ em, body }) => putRate(em, body),
  }),
  restRoute({
    method: 'DELETE',
    url: '/rates',
    tag: TAG,
    summary: `Delete the stored rate of base and quote on date (404 when there is none). ${SHARED}`,
    query: rateKeySchema,
    answer: '{ message }',
    output: messageAnswer,
    handler: ({ em, query }) => deleteRate(em, query),
  }),
];
