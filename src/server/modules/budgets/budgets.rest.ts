import { z } from 'zod';
import {
  createBudgetSchema,
  createLineItemSchema,
  saveBudgetSchema,
  updateBudgetSchema,
  updateLineItemSchema,
} from '../../../shared/schemas/budgets';
import { idParamsSchema, idSchema } from '../../../shared/schemas/common';
import {
  budgetAnswer,
  budgetOverviewAnswer,
  lineItemAnswer,
  messageAnswer,
  savedBudgetAnswer,
} from '../../http/answers';
import { jsonWithRawParts, RawJson } from '../../http/raw-json';
import { restRoute, type RestRoute } from '../../http/rest-route';
import {
  budgetOverview,
  createBudget,
  createLineItem,
  deleteBudget,
  deleteLineItem,
  listBudgets,
  listLineItems,
  saveBudget,
  updateBudget,
  updateLineItem,
} from './budgets.service';

const BUDGETS = 'Budgets';
const LINE_ITEMS = 'Line items';

/** A budget's id in the path, named `id` like every other path parameter. */
const budgetIdParams = z.object({ id: idSchema.describe("The budget's id") });

export const budgetRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/budgets',
    tag: BUDGETS,
    summary: 'List budgets, latest start date first',
    answer: 'An array of { id, name, startDate, endDate, amount }',
    output: z.array(budgetAnswer),
    handler: ({ em, userId }) => listBudgets(em, userId),
  }),
  restRoute({
    method: 'POST',
    url: '/budgets',
    tag: BUDGETS,
    summary: 'Create a budget (amount defaults to 0)',
    body: createBudgetSchema,
    status: 201,
    answer: 'The created budget with its id',
    output: budgetAnswer,
    handler: ({ em, userId, body }) => createBudget(em, userId, body),
  }),
  restRoute({
    method: 'POST',
    url: '/budgets/save',
    tag: BUDGETS,
    summary: 'Create or update a budget together with all its line items in one transaction',
    body: saveBudgetSchema,
    answer: '{ budget, lineItems }',
    output: savedBudgetAnswer,
    handler: ({ em, userId, body }) => saveBudget(em, userId, body),
  }),
  restRoute({
    method: 'GET',
    url: '/budgets/:id/overview',
    tag: BUDGETS,
    summary: 'The budget overview: transaction type totals, line items against actuals, Untracked, nets',
    params: idParamsSchema,
    answer: '{ budget, lineItems, transactions, overview }',
    output: budgetOverviewAnswer,
    refusals: [422],
    handler: async ({ em, userId, params }) => {
      const { budget, lineItems, transactionsJson, overview } = await budgetOverview(em, userId, params.id);
      return jsonWithRawParts([
        ['budget', budget],
        ['lineItems', lineItems],
        ['transactions', new RawJson(transactionsJson)],
        ['overview', overview],
      ]);
    },
  }),
  restRoute({
    method: 'PUT',
    url: '/budgets/:id',
    tag: BUDGETS,
    summary: 'Update any of name, startDate, endDate',
    params: idParamsSchema,
    body: updateBudgetSchema,
    answer: 'The updated budget',
    output: budgetAnswer,
    handler: ({ em, userId, params, body }) => updateBudget(em, userId, params.id, body),
  }),
  restRoute({
    method: 'DELETE',
    url: '/budgets/:id',
    tag: BUDGETS,
    summary: 'Delete a budget and its line items',
    params: idParamsSchema,
    answer: '{ message }',
    output: messageAnswer,
    handler: ({ em, userId, params }) => deleteBudget(em, userId, params.id),
  }),
  restRoute({
    method: 'GET',
    url: '/budgets/:id/line-items',
    tag: LINE_ITEMS,
    summary: "A budget's line items",
    params: budgetIdParams,
    answer: 'An array of { id, budgetId, name, amount, type, relatedCategories }',
    output: z.array(lineItemAnswer),
    handler: ({ em, userId, params }) => listLineItems(em, userId, params.id),
  }),
  restRoute({
    method: 'GET',
    url: '/line-items/:id',
    tag: LINE_ITEMS,
    summary:
      "A budget's line items (the id is the budget's; the same as GET /api/budgets/{id}/line-items, kept for existing scripts)",
    operationId: 'getLineItemsByBudgetId',
    deprecated: true,
    params: budgetIdParams,
    answer: 'An array of { id, budgetId, name, amount, type, relatedCategories }',
    output: z.array(lineItemAnswer),
    handler: ({ em, userId, params }) => listLineItems(em, userId, params.id),
  }),
  restRoute({
    method: 'POST',
    url: '/line-items',
    tag: LINE_ITEMS,
    summary: 'Create a line item (type defaults to Variable)',
    body: createLineItemSchema,
    status: 201,
    answer: 'The created line item',
    output: lineItemAnswer,
    handler: ({ em, userId, body }) => createLineItem(em, userId, body),
  }),
  restRoute({
    method: 'PUT',
    url: '/line-items/:id',
    tag: LINE_ITEMS,
    summary: 'Update any of budgetId, name, amount, type, relatedCategories',
    params: idParamsSchema,
    body: updateLineItemSchema,
    answer: 'The updated line item',
    output: lineItemAnswer,
    handler: ({ em, userId, params, body }) => updateLineItem(em, userId, params.id, body),
  }),
  restRoute({
    method: 'DELETE',
    url: '/line-items/:id',
    tag: LINE_ITEMS,
    summary: 'Delete a line item',
    params: idParamsSchema,
    answer: '{ message }',
    output: messageAnswer,
    handler: ({ em, userId, params }) => deleteLineItem(em, userId, params.id),
  }),
];
