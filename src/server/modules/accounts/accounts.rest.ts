import { createAccountSchema, updateAccountSchema } from '../../../shared/schemas/accounts';
import { idParamsSchema } from '../../../shared/schemas/common';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { createAccount, deleteAccount, listAccounts, updateAccount } from './accounts.service';

const TAG = 'Accounts';

export const accountRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/accounts',
    tag: TAG,
    summary: 'List accounts sorted by name',
    answer: 'An array of { id, name, type, balance }',
    handler: ({ em, userId }) => listAccounts(em, userId),
  }),
  restRoute({
    method: 'POST',
    url: '/accounts',
    tag: TAG,
    summary: 'Create an account (balance in cents, default 0)',
    body: createAccountSchema,
    status: 201,
    answer: 'The created account',
    handler: ({ em, userId, body }) => createAccount(em, userId, body),
  }),
  restRoute({
    method: 'PUT',
    url: '/accounts/:id',
    tag: TAG,
    summary: 'Update any of name, type, balance',
    params: idParamsSchema,
    body: updateAccountSchema,
    answer: 'The updated account',
    handler: ({ em, userId, params, body }) => updateAccount(em, userId, params.id, body),
  }),
  restRoute({
    method: 'DELETE',
    url: '/accounts/:id',
    tag: TAG,
    summary: 'Delete an account that has no transactions (409 with the count otherwise)',
    params: idParamsSchema,
    answer: '{ message }',
    handler: ({ em, userId, params }) => deleteAccount(em, userId, params.id),
  }),
];
