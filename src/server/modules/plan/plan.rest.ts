import {
  fillSchema,
  holdSchema,
  moveMoneySchema,
  planMonthParamsSchema,
  setAssignedSchema,
} from '../../../shared/schemas/plan';
import { planAnswer } from '../../http/answers';
import { RawJson } from '../../http/raw-json';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { fillMonth, getPlanWithJson, moveMoney, setAssigned, setHold } from './plan.service';

const TAG = 'Plan';
const FIGURES =
  '{ month, currency, noRate, toAssign, income, fromLastMonth, overspentLastMonth, overspentFrom, assigned, activity, available, held, holdable, categories: [{ category, name, envelope, hidden, assigned, activity, carryover, available, rollsOverspending, target, needed }], incomeCategories: [{ category, name, activity }], uncategorized: { count, amount }, moves } (integer cents)';

export const planRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/plan/:month',
    tag: TAG,
    summary:
      "A month's plan (YYYY-MM): what is assigned, spent and available in each expense category, To Assign, held, and the uncategorised line; only on-plan accounts count",
    params: planMonthParamsSchema,
    answer: FIGURES,
    output: planAnswer,
    handler: async ({ em, userId, params }) => {
      const { plan, json } = await getPlanWithJson(em, userId, params.month);
      // A kept answer goes as the bytes it went as before (and as their compressed forms).
      return json ? new RawJson(json, true) : plan;
    },
  }),
  restRoute({
    method: 'PUT',
    url: '/plan/:month/assigned',
    tag: TAG,
    summary:
      "Set an expense category's assigned amount for the month { category (id or name), amount (cents) }; it replaces the month's amount",
    params: planMonthParamsSchema,
    body: setAssignedSchema,
    answer: `The month's plan after the change: ${FIGURES}`,
    output: planAnswer,
    handler: ({ em, userId, params, body }) => setAssigned(em, userId, params.month, body),
  }),
  restRoute({
    method: 'POST',
    url: '/plan/:month/move',
    tag: TAG,
    summary:
      "Move money { from, to, amount (cents, more than 0) }: takes it from `from`'s assigned amount and adds it to `to`'s (null on either side is To Assign); recorded with the day it was made",
    params: planMonthParamsSchema,
    body: moveMoneySchema,
    answer: `The month's plan after the move: ${FIGURES}`,
    output: planAnswer,
    handler: ({ em, userId, params, body, request }) =>
      moveMoney(em, userId, params.month, body, request.server.services.clock.today()),
  }),
  restRoute({
    method: 'PUT',
    url: '/plan/:month/hold',
    tag: TAG,
    summary:
      "Hold part of the month's To Assign for the next month { amount (cents, 0 or more, at most what To Assign has) }; 0 releases it",
    params: planMonthParamsSchema,
    body: holdSchema,
    answer: `The month's plan after the change: ${FIGURES}`,
    output: planAnswer,
    handler: ({ em, userId, params, body }) => setHold(em, userId, params.month, body),
  }),
  restRoute({
    method: 'POST',
    url: '/plan/:month/fill',
    tag: TAG,
    summary:
      "Fill the month's assigned amounts { mode: lastMonth | average3 | average6 | average12 | targets | zero, categories? (ids or names; default every shown expense category) }: last month's assigned amounts, the average spending of the 3, 6 or 12 months before, what targets still need, or zero",
    params: planMonthParamsSchema,
    body: fillSchema,
    answer: `The month's plan after the fill: ${FIGURES}`,
    output: planAnswer,
    handler: ({ em, userId, params, body }) => fillMonth(em, userId, params.month, body),
  }),
];
