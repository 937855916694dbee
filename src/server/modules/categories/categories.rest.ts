import { z } from 'zod';
import { createCategorySchema } from '../../../shared/schemas/categories';
import { categoryAnswer } from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { createCategory, listCategories } from './categories.service';

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
];
