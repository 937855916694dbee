import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import {
  homeCurrencyInputSchema,
  loginInputSchema,
  mfaDisableInputSchema,
  mfaEnableInputSchema,
  mfaSetupInputSchema,
  mfaVerifyInputSchema,
  profileUpdateSchema,
  refreshInputSchema,
  registerInputSchema,
  signInParamsSchema,
} from '../../../shared/schemas/auth';
import { bearerFrom } from '../../common/bearer';
import {
  authAnswer,
  authStatusAnswer,
  loginAnswer,
  mfaSetupAnswer,
  profileAnswer,
  recoveryCodesAnswer,
  revokedAnswer,
  signInAnswer,
  userAnswer,
} from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { parseInput } from '../../http/validate';
import { setHomeCurrency } from '../users/home-currency.service';

const TAG = 'Auth';

/** Sign-up, sign-in and session calls (public: no access token needed), and the signed-in user's own profile. */
export const authRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/auth/status',
    tag: TAG,
    summary: 'Whether registration is open',
    public: true,
    answer: '{ registrationOpen, hasUsers }',
    output: authStatusAnswer,
    handler: ({ em, request }) => request.server.services.auth.status(em),
  }),
  restRoute({
    method: 'POST',
    url: '/auth/register',
    tag: TAG,
    summary:
      'Create a user (403 when registration is closed, 409 when the name is taken, 429 with Retry-After after REGISTRATIONS_PER_ADDRESS attempts from one address in an hour)',
    public: true,
    body: registerInputSchema,
    answer: '{ accessToken, refreshToken, user }',
    output: authAnswer,
    refusals: [403, 409],
    handler: ({ em, body, request }) =>
      request.server.services.auth.register(em, body, request.ip, request.headers['user-agent']),
  }),
  restRoute({
    method: 'POST',
    url: '/auth/login',
    tag: TAG,
    summary:
      'Sign in (429 with Retry-After after too many failures for the username or the address); with two-factor sign-in on, the answer is { mfaRequired: true, mfaToken } and POST /auth/mfa completes it',
    public: true,
    body: loginInputSchema,
    answer: '{ accessToken, refreshToken, user }, or { mfaRequired: true, mfaToken }',
    output: loginAnswer,
    refusals: [401],
    handler: ({ em, body, request }) =>
      request.server.services.auth.login(em, body, request.ip, request.headers['user-agent']),
  }),
  restRoute({
    method: 'POST',
    url: '/auth/mfa',
    tag: TAG,
    summary:
      'Complete a two-factor sign-in: the mfaToken from /auth/login (5 minutes) and a current code or an unused recovery code (401 when wrong, counted as a failed login)',
    public: true,
    body: mfaVerifyInputSchema,
    answer: '{ accessToken, refreshToken, user }',
    output: authAnswer,
    refusals: [401],
    handler: ({ em, body, request }) =>
      request.server.services.auth.verifyMfa(em, body, {
        address: request.ip,
        userAgent: request.headers['user-agent'],
      }),
  }),
  restRoute({
    method: 'POST',
    url: '/auth/refresh',
    tag: TAG,
    summary: 'Exchange a refresh token (sent as the bearer, empty body) for a new pair; the old one stops working',
    public: true,
    answer: '{ accessToken, refreshToken, user }',
    output: authAnswer,
    refusals: [401],
    handler: ({ em, request }) =>
      request.server.services.auth.refresh(em, refreshTokenOf(request.headers.authorization, request.body), {
        address: request.ip,
        userAgent: request.headers['user-agent'],
      }),
  }),
  restRoute({
    method: 'POST',
    url: '/auth/logout',
    tag: TAG,
    summary: "End the refresh token's sign-in (sent as the bearer): its refresh and access tokens stop working",
    public: true,
    status: 204,
    answer: 'Nothing',
    output: null,
    refusals: [401],
    handler: async ({ em, request }) => {
      await request.server.services.auth.logout(em, refreshTokenOf(request.headers.authorization, request.body));
    },
  }),
  restRoute({
    method: 'GET',
    url: '/auth/me',
    tag: TAG,
    summary: 'The signed-in user',
    answer: '{ id, username, apiTokenSet, apiTokenCreatedAt, homeCurrency, homeCurrencyChosen }',
    output: userAnswer,
    handler: ({ em, userId, request }) => request.server.services.auth.me(em, userId),
  }),
  restRoute({
    method: 'PUT',
    url: '/auth/profile',
    tag: TAG,
    summary:
      'Change any of username, password, apiToken, with currentPassword (403 when it is wrong; counted as a failed login)',
    body: profileUpdateSchema,
    answer: '{ message, user }',
    output: profileAnswer,
    refusals: [403],
    handler: async ({ em, userId, body, request }) => {
      const user = await request.server.services.auth.updateProfile(em, userId, body, {
        address: request.ip,
        signInId: request.user.signInId,
      });
      return { message: 'Profile updated', user };
    },
  }),
  restRoute({
    method: 'PUT',
    url: '/auth/home-currency',
    tag: TAG,
    summary:
      'Set the home currency that reports, the budget overview, envelopes and search totals are converted to. Nothing stored changes, except that the first choice of a user whose accounts predate currencies relabels the accounts still in the default (USD)',
    body: homeCurrencyInputSchema,
    answer: 'The user',
    output: userAnswer,
    handler: ({ em, userId, body }) => setHomeCurrency(em, userId, body),
  }),
  restRoute({
    method: 'POST',
    url: '/auth/mfa/setup',
    tag: TAG,
    summary:
      'Start turning two-factor sign-in on: a new TOTP secret, confirmed by POST /auth/mfa/enable (403 when currentPassword is wrong, 409 when it is on)',
    body: mfaSetupInputSchema,
    answer: '{ secret, otpauthUrl }',
    output: mfaSetupAnswer,
    refusals: [403, 409],
    handler: ({ em, userId, body, request }) =>
      request.server.services.auth.setupMfa(em, userId, body.currentPassword, origin(request)),
  }),
  restRoute({
    method: 'POST',
    url: '/auth/mfa/enable',
    tag: TAG,
    summary:
      'Turn two-factor sign-in on with a code from the secret just set up; answers ten one-time recovery codes, shown once (400 for a wrong code, 409 without a setup)',
    body: mfaEnableInputSchema,
    answer: '{ recoveryCodes }',
    output: recoveryCodesAnswer,
    refusals: [409],
    handler: ({ em, userId, body, request }) =>
      request.server.services.auth.enableMfa(em, userId, body.code, origin(request)),
  }),
  restRoute({
    method: 'DELETE',
    url: '/auth/mfa',
    tag: TAG,
    summary: 'Turn two-factor sign-in off (403 when currentPassword is wrong)',
    body: mfaDisableInputSchema,
    status: 204,
    answer: 'Nothing',
    output: null,
    refusals: [403],
    handler: async ({ em, userId, body, request }) => {
      await request.server.services.auth.disableMfa(em, userId, body.currentPassword, origin(request));
    },
  }),
  restRoute({
    method: 'GET',
    url: '/auth/sign-ins',
    tag: TAG,
    summary: "The signed-in user's live sign-ins (device, address, created, last seen), the latest first",
    answer: '[{ id, device, userAgent, address, createdAt, lastSeenAt, current }]',
    output: z.array(signInAnswer),
    handler: ({ em, userId, request }) => request.server.services.auth.signIns(em, userId, request.user.signInId),
  }),
  restRoute({
    method: 'DELETE',
    url: '/auth/sign-ins/:id',
    tag: TAG,
    summary: 'End one sign-in: its refresh and access tokens stop working at once (404 for an unknown or ended one)',
    params: signInParamsSchema,
    status: 204,
    answer: 'Nothing',
    output: null,
    refusals: [404],
    handler: async ({ em, userId, params, request }) => {
      await request.server.services.auth.revokeSignIn(em, userId, params.id);
    },
  }),
  restRoute({
    method: 'POST',
    url: '/auth/sign-ins/revoke-others',
    tag: TAG,
    summary: 'End every sign-in but the one making the request (over an API token: all of them)',
    answer: '{ revoked }',
    output: revokedAnswer,
    handler: ({ em, userId, request }) =>
      request.server.services.auth.revokeOtherSignIns(em, userId, request.user.signInId),
  }),
];

/** Where a signed-in request comes from. */
function origin(request: FastifyRequest) {
  return { address: request.ip, signInId: request.user.signInId, userAgent: request.headers['user-agent'] };
}

/** The refresh token comes as the bearer with an empty body (or as `refreshToken` in a JSON body). */
function refreshTokenOf(authorization: string | undefined, body: unknown): string {
  const bearer = bearerFrom(authorization);
  if (bearer) return bearer;
  if (body && typeof body === 'object' && 'refreshToken' in body) {
    return parseInput(refreshInputSchema, body).refreshToken;
  }
  throw new AppError('UNAUTHORIZED', 'Refresh token is required as the bearer token');
}
