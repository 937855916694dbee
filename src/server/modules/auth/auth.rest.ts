import { AppError } from '../../../shared/errors';
import {
  homeCurrencyInputSchema,
  loginInputSchema,
  profileUpdateSchema,
  refreshInputSchema,
  registerInputSchema,
} from '../../../shared/schemas/auth';
import { bearerFrom } from '../../common/bearer';
import { authAnswer, authStatusAnswer, profileAnswer, userAnswer } from '../../http/answers';
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
    handler: ({ em, body, request }) => request.server.services.auth.register(em, body, request.ip),
  }),
  restRoute({
    method: 'POST',
    url: '/auth/login',
    tag: TAG,
    summary: 'Sign in (429 with Retry-After after too many failures for the username or the address)',
    public: true,
    body: loginInputSchema,
    answer: '{ accessToken, refreshToken, user }',
    output: authAnswer,
    refusals: [401],
    handler: ({ em, body, request }) => request.server.services.auth.login(em, body, request.ip),
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
      request.server.services.auth.refresh(em, refreshTokenOf(request.headers.authorization, request.body)),
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
];

/** The refresh token comes as the bearer with an empty body (or as `refreshToken` in a JSON body). */
function refreshTokenOf(authorization: string | undefined, body: unknown): string {
  const bearer = bearerFrom(authorization);
  if (bearer) return bearer;
  if (body && typeof body === 'object' && 'refreshToken' in body) {
    return parseInput(refreshInputSchema, body).refreshToken;
  }
  throw new AppError('UNAUTHORIZED', 'Refresh token is required as the bearer token');
}
