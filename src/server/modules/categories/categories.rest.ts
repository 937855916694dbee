import { z } from 'zod';
import {
  createCategorySchema,
  deleteCategoryQuerySchema,
  mergeCategorySchema,
  updateCategorySchema,
} from '../../../shared/schemas/categories';
import { idParamsSchema } from '../../../shared/schemas/common';
import {
  categoryAnswer,
  categoryMergeAnswer,
  categoryUsageAnswer,
  messageAnswer,
  suggestionAnswer,
} from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { suggestInputSchema } from '../../../shared/schemas/suggest';
import {
  categoryUsage,
  createCategory,
  deleteCategory,
  listCategories,
  mergeCategory,
  updateCategory,
} from './categories.service';
import { suggestCategories } from './suggestions.service';

export const categoryRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/categories',
    tag: 'Categories',
    summary: 'List categories sorted by name',
    answer: 'An array of { id, name, kind, hidden, rollsOverspendingFrom, target }',
    output: z.array(categoryAnswer),
    handler: ({ em, userId }) => listCategories(em, userId),
  }),
  restRoute({
    method: 'POST',
    url: '/categories',
    tag: 'Categories',
    summary: 'Create a category (names are unique regardless of case)',
    body: createCategorySchema,
    status: 201,
    answer: 'The created category { id, name, kind, hidden, rollsOverspendingFrom, target }',
    output: categoryAnswer,
    handler: ({ em, userId, body }) => createCategory(em, userId, body),
  }),
  restRoute({
    method: 'PUT',
    url: '/categories/:id',
    tag: 'Categories',
    summary:
      'Rename a category (rules, line items and envelopes follow), set its kind, hide it, set the month overspending rolls over from, or its target',
    params: idParamsSchema,
    body: updateCategorySchema,
    answer: 'The category as it is now',
    output: categoryAnswer,
    handler: ({ em, userId, params, body }) => updateCategory(em, userId, params.id, body),
  }),
  restRoute({
    method: 'GET',
    url: '/categories/:id/usage',
    tag: 'Categories',
    summary: 'Count what refers to a category: transactions and split parts, rules, line items, envelopes, schedules',
    params: idParamsSchema,
    answer: '{ transactions, rules, lineItems, envelopes, schedules }',
    output: categoryUsageAnswer,
    handler: ({ em, userId, params }) => categoryUsage(em, userId, params.id),
  }),
  restRoute({
    method: 'POST',
    url: '/categories/:id/merge',
    tag: 'Categories',
    summary:
      'Merge a category into another { into: id }: every transaction, split part, schedule, rule, line item and envelope reference moves, then the first is removed',
    params: idParamsSchema,
    body: mergeCategorySchema,
    answer: '{ category (the one merged into), moved: counts of what moved }',
    output: categoryMergeAnswer,
    handler: ({ em, userId, params, body }) => mergeCategory(em, userId, params.id, body.into),
  }),
  restRoute({
    method: 'DELETE',
    url: '/categories/:id',
    tag: 'Categories',
    summary:
      'Delete a category; refused with 409 (naming what refers to it) unless nothing does or ?reassignTo= names a category to move it all to',
    params: idParamsSchema,
    query: deleteCategoryQuerySchema,
    answer: '{ message }',
    output: messageAnswer,
    handler: ({ em, userId, params, query }) => deleteCategory(em, userId, params.id, query.reassignTo),
  }),
  restRoute({
    method: 'POST',
    url: '/categories/suggest',
    tag: 'Categories',
    summary:
      'Suggest a category for up to 5,000 rows { transactions: [{ description, amount (cents), postDate?, account? }] }, learned only from your own categorised transactions (split parts, not parents)',
    body: suggestInputSchema,
    answer:
      'In the same order, [{ category (or null), confidence (0..1; at or above 0.9 an import applies it), reason }]',
    output: z.array(suggestionAnswer),
    handler: ({ em, userId, body }) => suggestCategories(em, userId, body),
  }),
];
