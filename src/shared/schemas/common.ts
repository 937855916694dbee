import { z } from 'zod';
import { isIsoDate } from '../dates/calendar';
import { MAX_AMOUNT_CENTS } from '../limits';
import { groupDigits } from '../money/money';
import { isCurrencyCode } from '../money/currencies';
import { hasBidiControls } from '../bidi';

/** A calendar date `YYYY-MM-DD` that exists (2024-02-30 is refused). */
export const isoDateSchema = z
  .string({ error: 'must be a date in YYYY-MM-DD format' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in YYYY-MM-DD format')
  .refine((value) => isIsoDate(value), 'is not a real calendar date');

const AMOUNT_TEXT = groupDigits(MAX_AMOUNT_CENTS);

/**
 * Integer cents with |n| <= MAX_AMOUNT_CENTS (10^13), on every front door: sums of up to
 * ~900 such amounts stay exact safe integers.
 */
export const centsSchema = z
  .number({ error: 'must be a number of cents' })
  .refine(
    (value) => isAllowedAmount(value),
    `must be a whole number of cents between -${AMOUNT_TEXT} and ${AMOUNT_TEXT}`,
  );

/** True when `cents` is an amount any front door accepts. */
export function isAllowedAmount(cents: number): boolean {
  return Number.isInteger(cents) && Math.abs(cents) <= MAX_AMOUNT_CENTS;
}

/** An ISO 4217 currency code the app knows ("EUR", "JPY"); lower case is read as upper case. */
export const currencySchema = z
  .string({ error: 'must be an ISO 4217 currency code such as EUR' })
  .trim()
  .toUpperCase()
  // Answers a plain string: stored codes read back from the database are strings too.
  .refine((code): boolean => isCurrencyCode(code), 'must be an ISO 4217 currency code such as EUR');

export const idSchema = z.coerce
  .number({ error: 'must be a positive whole number' })
  .int('must be a positive whole number')
  .positive('must be a positive whole number')
  .max(Number.MAX_SAFE_INTEGER, 'is too large');

export const idParamsSchema = z.object({ id: idSchema });

/**
 * Control characters: C0 (NUL, ESC, ...), DEL and C1, plus lone UTF-16 surrogates (not text).
 * Multi-line fields may hold tab, line feed and carriage return; single-line fields may not.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point of these two patterns
const CONTROL_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f]|\p{Surrogate}/u;
// eslint-disable-next-line no-control-regex -- as above, minus tab, line feed and carriage return
const CONTROL_MULTI_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\p{Surrogate}/u;
export const CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters';

export function hasControlCharacters(value: string, multiline = false): boolean {
  return (multiline ? CONTROL_MULTI_LINE : CONTROL_SINGLE_LINE).test(value);
}

export const BIDI_CONTROLS_MESSAGE =
  'must not contain bidirectional override characters (U+202A to U+202E, U+2066 to U+2069)';

export interface TextOptions {
  /** Longest accepted length (after trimming when `trim`). */
  max: number;
  /** Shortest accepted length; 0 unless given. */
  min?: number;
  /** Names the field in the messages of `min`, e.g. 'Category name' -> 'Category name is required'. */
  label?: string;
  /** Trim surrounding whitespace first (default true). */
  trim?: boolean;
  /** Allow tab, line feed and carriage return (default false). */
  multiline?: boolean;
}

/**
 * The one text field every schema uses (REST bodies and queries, tRPC inputs, forms): a string
 * without control characters or bidirectional overrides, of bounded length. A NUL, an ESC or a
 * U+202E is a 400 naming the field, never something stored.
 */
export function text(options: TextOptions) {
  const { max, min = 0, label, trim = true, multiline = false } = options;
  let schema = z
    .string({ error: label ? `${label} is required` : 'must be text' })
    .refine(
      (value) => !hasControlCharacters(value, multiline),
      label ? `${label} ${CONTROL_CHARACTERS_MESSAGE}` : CONTROL_CHARACTERS_MESSAGE,
    )
    .refine((value) => !hasBidiControls(value), label ? `${label} ${BIDI_CONTROLS_MESSAGE}` : BIDI_CONTROLS_MESSAGE);
  if (trim) schema = schema.trim();
  if (min > 0)
    schema = schema.min(
      min,
      label
        ? min === 1
          ? `${label} is required`
          : `${label} must be at least ${min} characters`
        : `must be at least ${min} characters`,
    );
  return schema.max(max, label ? `${label} must be at most ${max} characters` : `must be at most ${max} characters`);
}

/** A short required text: trimmed, 1..max characters, no control characters. */
export function requiredText(label: string, max = 255) {
  return text({ label, max, min: 1 });
}
