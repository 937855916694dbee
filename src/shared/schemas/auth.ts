import { z } from 'zod';
import { estimateTokenBits, MIN_API_TOKEN_BITS, stripTokenPrefix } from '../tokens';
import { currencySchema, hasControlCharacters, text } from './common';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
export const USERNAME_MAX_LENGTH = 64;
export const API_TOKEN_MIN_LENGTH = 32;
export const API_TOKEN_MAX_LENGTH = 256;

export const usernameSchema = text({ label: 'Username', min: 1, max: USERNAME_MAX_LENGTH });

/** A password as typed: not trimmed, no control characters. */
function passwordText(label: string, min: number, max: number) {
  return z
    .string({ error: `${label} is required` })
    .min(min, min === 1 ? `${label} is required` : `${label} must be at least ${min} characters`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !hasControlCharacters(v), `${label} must not contain control characters`);
}

export const passwordSchema = passwordText('Password', PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH);

export const apiTokenSchema = z
  .string()
  .min(API_TOKEN_MIN_LENGTH, { error: `API token must be at least ${API_TOKEN_MIN_LENGTH} characters`, abort: true })
  .max(API_TOKEN_MAX_LENGTH, { error: `API token must be at most ${API_TOKEN_MAX_LENGTH} characters`, abort: true })
  .regex(/^[\x21-\x7e]+$/, { error: 'API token may only contain printable characters without spaces', abort: true })
  // Three dot-separated parts is how an access token looks: such a token would never reach the API-token check.
  .refine(
    (v) => v.split('.').length !== 3,
    'API token must not contain exactly two dots (it would be read as an access token)',
  )
  .refine(
    (v) => estimateTokenBits(stripTokenPrefix(v)) >= MIN_API_TOKEN_BITS,
    `API token is too easy to guess: it needs at least ${MIN_API_TOKEN_BITS} bits of randomness (use Generate, or e.g. openssl rand -hex 32)`,
  );

/** Login checks presence only: length rules must not reveal anything about stored passwords. */
export const loginInputSchema = z.object({
  username: text({ label: 'Username', min: 1, max: 256 }),
  password: passwordText('Password', 1, 1024),
});

export const registerInputSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  /** The app presets it from the browser's locale; USD when left out. */
  homeCurrency: currencySchema.optional(),
});

/** The home currency alone: a preference, so it needs no password. */
export const homeCurrencyInputSchema = z.object({ homeCurrency: currencySchema }).strict();
export type HomeCurrencyInput = z.infer<typeof homeCurrencyInputSchema>;

/**
 * Any of username, password, apiToken (`apiToken: null` removes the token), always with the
 * current password: a stolen access token or API token alone cannot take the account over.
 */
export const profileUpdateSchema = z
  .object({
    username: usernameSchema.optional(),
    password: passwordSchema.optional(),
    apiToken: apiTokenSchema.nullable().optional(),
    currentPassword: passwordText('Current password', 1, 1024).optional(),
  })
  .strict()
  .refine((v) => v.username !== undefined || v.password !== undefined || v.apiToken !== undefined, {
    message: 'No changes to save',
  })
  .refine((v) => v.currentPassword !== undefined, {
    message: 'Current password is required to change the username, password or API token',
    path: ['currentPassword'],
  });

export const refreshInputSchema = z.object({
  refreshToken: text({ label: 'Refresh token', min: 1, max: 512, trim: false }),
});

export type LoginInput = z.infer<typeof loginInputSchema>;
export type RegisterInput = z.infer<typeof registerInputSchema>;
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
/** What the Profile form sends: the changes and the current password. */
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;

/** The user as every answer shows it. The API token itself is never sent back. */
export interface UserDto {
  id: number;
  username: string;
  apiTokenSet: boolean;
  apiTokenCreatedAt: string | null;
  /** ISO 4217 code that figures combining accounts are converted to. */
  homeCurrency: string;
  /** False until a user whose accounts predate currencies chooses a home currency (which relabels those accounts). */
  homeCurrencyChosen: boolean;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export interface AuthResult extends TokenPair {
  user: UserDto;
}

export interface AuthStatus {
  registrationOpen: boolean;
  hasUsers: boolean;
}
