import { z } from 'zod';
import {
  createScheduleSchema,
  occurrencePickSchema,
  occurrenceRangeSchema,
  updateScheduleSchema,
  upcomingInputSchema,
} from '../../../shared/schedules';
import { idParamsSchema } from '../../../shared/schemas/common';
import {
  messageAnswer,
  occurrenceAnswer,
  scheduleAnswer,
  scheduleSuggestionAnswer,
  upcomingAnswer,
} from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { present, wholeNumberText, wireQuery } from '../../http/wire-query';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listOccurrences,
  listSchedules,
  postOccurrenceNow,
  scheduleSuggestions,
  skipOccurrence,
  upcomingOccurrences,
  updateSchedule,
} from './schedules.service';

const TAG = 'Schedules';

const upcomingQuerySchema = wireQuery(
  { days: z.string().optional(), account_id: z.string().optional() },
  upcomingInputSchema,
  (q) => ({ days: wholeNumberText(q.days), accountId: wholeNumberText(q.account_id) }),
);

const rangeQuerySchema = wireQuery(
  {
    start_date: z.string({ error: 'start_date is required' }),
    end_date: z.string({ error: 'end_date is required' }),
  },
  occurrenceRangeSchema,
  (q) => ({ startDate: q.start_date, endDate: q.end_date }),
);

const pickQuerySchema = wireQuery({ date: z.string().optional() }, occurrencePickSchema, (q) => ({
  date: present(q.date),
}));

const scheduleFields =
  '{ name, account (id or name), description, amount (cents, not 0), amountTolerance (percent 0-50, default 0), category?, recurrence (RRULE such as FREQ=MONTHLY;BYMONTHDAY=31: the 31st falls on shorter months’ last day), weekendRule (none|before|after, default none), mode (post|expect, default post), window (days 0-10, default 3), startDate, end (never | { after: n } | { until: date }, default never) }';

export const scheduleRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/schedules',
    tag: TAG,
    summary: 'Every scheduled transaction, oldest first, with its next date and how many occurrences were missed',
    answer: 'An array of schedules',
    output: z.array(scheduleAnswer),
    handler: ({ em, userId, request }) => listSchedules(em, userId, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'POST',
    url: '/schedules',
    tag: TAG,
    summary: `Create a schedule ${scheduleFields}; occurrences due by today are posted or matched at once`,
    body: createScheduleSchema,
    status: 201,
    answer: 'The created schedule',
    output: scheduleAnswer,
    handler: ({ em, userId, body, request }) => createSchedule(em, userId, body, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'GET',
    url: '/schedules/upcoming',
    tag: TAG,
    summary:
      'What is coming in the next `days` days (1-400, default 30), optionally of one account (account_id): occurrences still upcoming or due, each with its account’s projected balance after it',
    query: upcomingQuerySchema,
    answer: '{ startDate, endDate, occurrences: [occurrence + projectedBalance] }',
    output: upcomingAnswer,
    handler: ({ em, userId, query, request }) =>
      upcomingOccurrences(em, userId, query, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'GET',
    url: '/schedules/suggestions',
    tag: TAG,
    summary:
      'Schedules your history suggests: the same merchant with a stable amount at a regular interval at least 3 times, with the interval, amount range and next date',
    answer: 'An array of suggestions (POST one to /api/schedules with startDate = nextDate to create it)',
    output: z.array(scheduleSuggestionAnswer),
    handler: ({ em, userId, request }) => scheduleSuggestions(em, userId, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'GET',
    url: '/schedules/occurrences',
    tag: TAG,
    summary:
      'Every schedule’s occurrences whose day falls from start_date through end_date (at most 800 days): stored ones with what became of them, later ones as upcoming',
    query: rangeQuerySchema,
    answer: 'An array of occurrences by date',
    output: z.array(occurrenceAnswer),
    handler: ({ em, userId, query, request }) =>
      listOccurrences(em, userId, query, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'GET',
    url: '/schedules/:id',
    tag: TAG,
    summary: 'One schedule',
    params: idParamsSchema,
    answer: 'The schedule',
    output: scheduleAnswer,
    handler: ({ em, userId, params, request }) =>
      getSchedule(em, userId, params.id, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'PUT',
    url: '/schedules/:id',
    tag: TAG,
    summary: `Update any of ${scheduleFields}; open occurrences follow the change, posted and matched ones stay`,
    params: idParamsSchema,
    body: updateScheduleSchema,
    answer: 'The updated schedule',
    output: scheduleAnswer,
    handler: ({ em, userId, params, body, request }) =>
      updateSchedule(em, userId, params.id, body, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'DELETE',
    url: '/schedules/:id',
    tag: TAG,
    summary: 'Delete a schedule and its occurrences (the transactions it posted or matched stay)',
    params: idParamsSchema,
    answer: '{ message }',
    output: messageAnswer,
    handler: ({ em, userId, params }) => deleteSchedule(em, userId, params.id),
  }),
  restRoute({
    method: 'POST',
    url: '/schedules/:id/skip',
    tag: TAG,
    summary: 'Skip the next open occurrence, or the one on `date` (the schedule’s own day for it)',
    params: idParamsSchema,
    query: pickQuerySchema,
    answer: 'The skipped occurrence',
    output: occurrenceAnswer,
    handler: ({ em, userId, params, query, request }) =>
      skipOccurrence(em, userId, params.id, query, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'POST',
    url: '/schedules/:id/post-now',
    tag: TAG,
    summary: 'Post the next open occurrence now (or the one on `date`): its transaction is dated today',
    params: idParamsSchema,
    query: pickQuerySchema,
    answer: 'The posted occurrence, with its transactionId',
    output: occurrenceAnswer,
    handler: ({ em, userId, params, query, request }) =>
      postOccurrenceNow(em, userId, params.id, query, request.server.services.clock.today()),
  }),
];
