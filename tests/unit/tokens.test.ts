import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiTokenSchema } from '../../src/shared/schemas/auth';
import { API_TOKEN_PREFIX, estimateTokenBits, MIN_API_TOKEN_BITS, stripTokenPrefix } from '../../src/shared/tokens';
import { generateApiToken } from '../../src/client/features/profile/profile-helpers';

const hex = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
const b64 = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('base64url');

describe('estimateTokenBits', () => {
  it.each([
    ['a'.repeat(32), 0, 10],
    ['a'.repeat(500), 0, 10],
    ['abcdefghijklmnopqrstuvwxyz', 0, 15],
    ['zyxwvutsrqponmlkjihgfedcba', 0, 15],
    ['0123456789012345678901234567890123456789', 0, 40],
    ['abcabcabcabcabcabcabcabcabcabcabcabc', 0, 40],
    ['Password123Password123Password123!', 0, 127],
    ['correcthorsebatterystaple', 0, 127],
  ])('%s is estimated between %i and %i bits', (token, low, high) => {
    const bits = estimateTokenBits(token);
    expect(bits).toBeGreaterThanOrEqual(low);
    expect(bits).toBeLessThanOrEqual(high);
  });

  it('gives random base64url tokens of 32 bytes well over 128 bits', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        expect(estimateTokenBits(Buffer.from(bytes).toString('base64url'))).toBeGreaterThanOrEqual(MIN_API_TOKEN_BITS);
      }),
    );
  });

  it('gives random hex tokens of 32 bytes (openssl rand -hex 32) over 128 bits', () => {
    for (let i = 0; i < 200; i++) expect(estimateTokenBits(hex(32))).toBeGreaterThanOrEqual(MIN_API_TOKEN_BITS);
  });

  it('never rewards repeating a token', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 40 }), fc.integer({ min: 2, max: 6 }), (token, times) => {
        expect(estimateTokenBits(token.repeat(times))).toBeLessThanOrEqual(estimateTokenBits(token) + 7 * 4);
      }),
    );
  });
});

describe('apiTokenSchema', () => {
  it('accepts generated tokens, which carry the btapi_ prefix', () => {
    for (let i = 0; i < 50; i++) {
      const token = generateApiToken();
      expect(token.startsWith(API_TOKEN_PREFIX)).toBe(true);
      expect(stripTokenPrefix(token)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(apiTokenSchema.safeParse(token).success).toBe(true);
    }
    expect(apiTokenSchema.safeParse(b64(32)).success).toBe(true);
  });

  it.each([
    ['a'.repeat(32), /128 bits/],
    [`${API_TOKEN_PREFIX}${'a'.repeat(43)}`, /128 bits/],
    [`${b64(12)}.${b64(12)}.${b64(12)}`, /two dots/],
    ['short', /at least 32 characters/],
    [`${b64(32)} ${b64(4)}`, /printable/],
  ])('refuses %s', (token, message) => {
    const parsed = apiTokenSchema.safeParse(token);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.message).join('; ')).toMatch(message);
  });
});
