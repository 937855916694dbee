/**
 * Limits every front door (REST, tRPC, CSV and statement imports) applies alike.
 * One home, so the API, the importer and the forms cannot disagree.
 */

/**
 * The largest amount magnitude stored anywhere, in cents (10^13 cents = 100 billion).
 * Well inside Number.MAX_SAFE_INTEGER, so sums of many such amounts stay exact.
 */
export const MAX_AMOUNT_CENTS = 10_000_000_000_000;

/** The longest transaction description the API accepts; imports truncate longer ones with a warning. */
export const DESCRIPTION_MAX_LENGTH = 1000;
