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

/** The longest category or account name, and the longest text a transaction search compares with. */
export const NAME_MAX_LENGTH = 255;

/** The most categories one transaction search names. */
export const MAX_FILTER_CATEGORIES = 500;

/** The most rows one list answer holds; a larger one must be paged (limit/offset) or narrowed (422). */
export const MAX_LIST_ROWS = 100_000;

/** The most calls one batched tRPC request holds: the client's batch link splits at it, the server refuses more. */
export const MAX_BATCH_CALLS = 20;

/** The most line items one budget holds: 500 x MAX_AMOUNT_CENTS still sums to an exact safe integer. */
export const MAX_LINE_ITEMS_PER_BUDGET = 500;
