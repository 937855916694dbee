import { z } from 'zod';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
export const USERNAME_MAX_LENGTH = 64;
export const API_TOKEN_MIN_LENGTH = 32;
export const API_TOKEN_MAX_LENGTH = 256;

export const usernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .max(USERNAME_MAX_LENGTH, `Username must be at most ${USERNAME_MAX_LENGTH} characters`)
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'Username must not contain control characters');

export const passwordSchema = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const apiTokenSchema = z
  .string()
  .min(API_TOKEN_MIN_LENGTH, `API token must be at least ${API_TOKEN_MIN_LENGTH} characters`)
  .max(API_TOKEN_MAX_LENGTH, `API token must be at most ${API_TOKEN_MAX_LENGTH} characters`)
  .regex(/^[\x21-\x7e]+$/, 'API token may only contain printable characters without spaces');

/** Login checks presence only: length rules must not reveal anything about stored passwords. */
export const loginInputSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(256),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});

export const registerInputSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
});

/** Any of username, password, apiToken; `apiToken: null` removes the token. */
export const profileUpdateSchema = z
  .object({
    username: usernameSchema.optional(),
    password: passwordSchema.optional(),
    apiToken: apiTokenSchema.nullable().optional(),
  })
  .strict()
  .refine((v) => v.username !== undefined || v.password !== undefined || v.apiToken !== undefined, {
    message: 'No changes to save',
  });

export const refreshInputSchema = z.object({
  refreshToken: z.string().min(1, 'Refresh token is required').max(512),
});

export type LoginInput = z.infer<typeof loginInputSchema>;
export type RegisterInput = z.infer<typeof registerInputSchema>;
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** The user as every answer shows it. The API token itself is never sent back. */
export interface UserDto {
  id: number;
  username: string;
  apiTokenSet: boolean;
  apiTokenCreatedAt: string | null;
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
