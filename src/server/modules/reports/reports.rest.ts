import { z } from 'zod';
import { monthlyReportInputSchema, payeeReportInputSchema } from '../../../shared/schemas/reports';
import { monthlyReportAnswer, payeeAnswer } from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { present, wholeNumberText, wireQuery } from '../../http/wire-query';
import { monthlyReport, payeeReport } from './reports.service';

const TAG = 'Reports';

const range = {
  start_date: z.string({ error: 'start_date is required' }),
  end_date: z.string({ error: 'end_date is required' }),
  account: z.string().optional(),
};

export const monthlyReportQuerySchema = wireQuery(range, monthlyReportInputSchema, (q) => ({
  startDate: q.start_date,
  endDate: q.end_date,
  account: present(q.account),
}));

export const payeeReportQuerySchema = wireQuery(
  { ...range, limit: z.string().optional() },
  payeeReportInputSchema,
  (q) => ({
    startDate: q.start_date,
    endDate: q.end_date,
    account: present(q.account),
    limit: wholeNumberText(q.limit),
  }),
);

export const reportRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/reports/monthly',
    tag: TAG,
    summary:
      'Income, expenses, net and signed sums per category for every month of the range (split parts counted, parents never)',
    query: monthlyReportQuerySchema,
    answer:
      'An array of { month: "YYYY-MM", income, expenses, net, byCategory: { "<category or Uncategorized>": cents } }, one per month, zeros included',
    output: z.array(monthlyReportAnswer),
    handler: ({ em, userId, query }) => monthlyReport(em, userId, query),
  }),
  restRoute({
    method: 'GET',
    url: '/reports/payees',
    tag: TAG,
    summary:
      'The payees (descriptions without reference numbers, any case) with the largest totals in the range; limit 1-1000, default 20',
    query: payeeReportQuerySchema,
    answer: 'An array of { payee, count, total } by the magnitude of total',
    output: z.array(payeeAnswer),
    handler: ({ em, userId, query }) => payeeReport(em, userId, query),
  }),
];
