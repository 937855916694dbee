import { z } from 'zod';
import { createCategorySchema } from '../../../shared/schemas/categories';
import { categoryAnswer, suggestionAnswer } from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { suggestInputSchema } from '../../../shared/schemas/suggest';
import { createCategory, listCategories } from './categories.service';
import { suggestCategories } from './suggestions.service';

export const categoryRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/categories',
    tag: 'Categories',
    summary: 'List categories sorted by name',
    answer: 'An array of { id, name }',
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
    answer: 'The created category { id, name }',
    output: categoryAnswer,
    handler: ({ em, userId, body }) => createCategory(em, userId, body),
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
