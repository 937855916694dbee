import { z } from 'zod';
import type { BudgetOverview } from '../../shared/budget/overview';
import type { MonthlyReportRow } from '../../shared/reports/monthly';
import type { PayeeTotal } from '../../shared/reports/payees';
import { ACCOUNT_TYPES, type AccountDto } from '../../shared/schemas/accounts';
import type {
  AuthResult,
  AuthStatus,
  LoginResult,
  MfaChallenge,
  MfaSetup,
  RecoveryCodes,
  SignInDto,
  UserDto,
} from '../../shared/schemas/auth';
import { LINE_ITEM_TYPES, type BudgetDto, type LineItemDto, type SavedBudget } from '../../shared/schemas/budgets';
import {
  CATEGORY_KINDS,
  type CategoryDto,
  type CategoryMergeResult,
  type CategoryTarget,
  type CategoryUsage,
} from '../../shared/schemas/categories';
import type { EnvelopeDto } from '../../shared/schemas/envelopes';
import type { SearchTotalDto } from '../../shared/schemas/transactions';
import type { ImportProfileDto, ImportResult } from '../../shared/schemas/import';
import type { PlanCategoryDto, PlanDto } from '../../shared/schemas/plan';
import type { ReconcileResult } from '../../shared/schemas/register';
import {
  TRANSACTION_TYPES,
  transactionAnswerSchema,
  type BatchDto,
  type SplitDetails,
} from '../../shared/schemas/transactions';
import type { UserDataImportResult } from '../../shared/schemas/user-data';
import { importTransfersSchema } from '../../shared/schemas/transfers';
import type { SuggestionDto } from '../../shared/schemas/suggest';
import {
  OCCURRENCE_STATUSES,
  SCHEDULE_MODES,
  WEEKEND_RULES,
  type OccurrenceDto,
  type ScheduleDto,
  type ScheduleSuggestionDto,
  type UpcomingDto,
} from '../../shared/schedules';
import { RULE_ACTION_FIELDS, type ApplyRulesResult, type RuleDto, type RuleMatchCount } from '../../shared/rules';

/**
 * What each REST route answers, as zod schemas: the OpenAPI document describes every 2xx
 * with them, and tests check real answers against them. Each one `satisfies` the DTO type
 * the service returns, so a DTO change that the schema does not follow fails to compile.
 */

const cents = z.number().int().describe('Integer cents');
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe('YYYY-MM-DD');
const timestamp = z.string().describe('ISO-8601 date and time');

/** The currency of a figure that combines accounts. */
const homeCurrencyField = z
  .string()
  .describe("The home currency every figure is in (minor units); other currencies converted at their date's rate");
/** Rows a converted figure left out. */
const noRateField = z
  .number()
  .int()
  .describe('Transactions in another currency left out of the figures: no rate within 7 days of their date');

export const messageAnswer = z.object({ message: z.string() });

export const userAnswer = z.object({
  id: z.number().int(),
  username: z.string(),
  apiTokenSet: z.boolean(),
  apiTokenCreatedAt: timestamp.nullable(),
  mfaEnabled: z.boolean().describe('Two-factor sign-in is on'),
  recoveryCodesLeft: z.number().int().describe('Unused recovery codes'),
  homeCurrency: z.string().describe('ISO 4217 code that figures combining accounts are converted to'),
  homeCurrencyChosen: z
    .boolean()
    .describe('False until a user whose accounts predate currencies chooses; that choice relabels those accounts'),
}) satisfies z.ZodType<UserDto>;

export const authStatusAnswer = z.object({
  registrationOpen: z.boolean(),
  hasUsers: z.boolean(),
}) satisfies z.ZodType<AuthStatus>;

export const authAnswer = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  user: userAnswer,
}) satisfies z.ZodType<AuthResult>;

export const mfaChallengeAnswer = z.object({
  mfaRequired: z.literal(true),
  mfaToken: z.string().describe('Send it with a code to POST /api/auth/mfa within 5 minutes'),
}) satisfies z.ZodType<MfaChallenge>;

export const loginAnswer = z.union([authAnswer, mfaChallengeAnswer]) satisfies z.ZodType<LoginResult>;

export const mfaSetupAnswer = z.object({
  secret: z.string().describe('The TOTP secret, base32'),
  otpauthUrl: z.string().describe('otpauth://totp/... for a QR code'),
}) satisfies z.ZodType<MfaSetup>;

export const recoveryCodesAnswer = z.object({
  recoveryCodes: z.array(z.string()).describe('Ten one-time codes, shown once'),
}) satisfies z.ZodType<RecoveryCodes>;

export const signInAnswer = z.object({
  id: z.string(),
  device: z.string().describe('Browser and system read from the user agent'),
  userAgent: z.string().nullable(),
  address: z.string().nullable().describe('Client address, as last seen'),
  createdAt: timestamp,
  lastSeenAt: timestamp,
  current: z.boolean().describe('The sign-in making this request'),
}) satisfies z.ZodType<SignInDto>;

export const revokedAnswer = z.object({ revoked: z.number().int().describe('Sign-ins ended') });

export const profileAnswer = z.object({ message: z.string(), user: userAnswer });

export const accountAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  currency: z.string().describe('ISO 4217 code; the balances and the transactions are in its minor unit'),
  balance: cents.describe('The opening balance plus every counted transaction of the account'),
  openingBalance: cents.describe('The balance on openingDate, before the transactions'),
  openingDate: isoDate,
  applySuggestions: z.boolean().describe("The setting 'Apply confident suggestions' on import"),
  lastImport: z
    .object({ batchId: z.string(), uploadDate: z.string(), fileName: z.string().nullable() })
    .nullable()
    .describe('The latest upload into the account'),
  onBudget: z.boolean().describe('Its transactions count in the monthly plan'),
}) satisfies z.ZodType<AccountDto>;

export const netWorthAnswer = z.object({
  currency: homeCurrencyField.optional(),
  points: z.array(
    z.object({
      month: z.string().describe('YYYY-MM'),
      endDate: isoDate,
      netWorth: cents,
      noRate: z
        .number()
        .int()
        .optional()
        .describe('Accounts in another currency left out of this month: no rate within 7 days of its end'),
    }),
  ),
});

const month = z
  .string()
  .regex(/^\d{4}-\d{2}$/)
  .describe('YYYY-MM');

export const categoryTargetAnswer = z.union([
  z.object({ type: z.enum(['monthly', 'refill']), amount: cents }),
  z.object({ type: z.literal('byDate'), amount: cents, date: isoDate }),
]) satisfies z.ZodType<CategoryTarget>;

export const categoryAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(CATEGORY_KINDS),
  hidden: z.boolean().describe('Kept out of pickers and the plan'),
  rollsOverspendingFrom: month.nullable().describe('Overspending rolls into the next month from this month on'),
  target: categoryTargetAnswer.nullable(),
}) satisfies z.ZodType<CategoryDto>;

export const categoryUsageAnswer = z.object({
  transactions: z.number().int().describe('Transactions and split parts'),
  rules: z.number().int(),
  lineItems: z.number().int(),
  envelopes: z.number().int(),
  schedules: z.number().int(),
  planMonths: z.number().int().describe('Months of the plan with an assigned amount or a move naming it'),
}) satisfies z.ZodType<CategoryUsage>;

const planCategoryAnswer = z.object({
  category: z.number().int().describe('Category id'),
  name: z.string(),
  envelope: z
    .string()
    .nullable()
    .describe('The envelope it is shown under (the first by name holding it); null: Other'),
  hidden: z.boolean(),
  assigned: cents,
  activity: cents.describe('Counted on-plan transactions of the month'),
  carryover: cents.describe("Last month's available when positive or rolled over, else 0"),
  available: cents.describe('assigned + activity + carryover'),
  rollsOverspending: z.boolean(),
  target: categoryTargetAnswer.nullable(),
  needed: cents.describe('What its target still needs this month'),
}) satisfies z.ZodType<PlanCategoryDto>;

export const planAnswer = z.object({
  month,
  currency: homeCurrencyField,
  noRate: noRateField,
  toAssign: cents.describe('May be negative: more assigned than there is'),
  income: cents,
  fromLastMonth: cents.describe("Last month's To Assign plus what it held"),
  overspentLastMonth: cents.describe(
    "Last month's overspending (of categories that do not roll it over), zero or negative",
  ),
  overspentFrom: z.array(z.object({ category: z.number().int(), name: z.string(), amount: cents })),
  assigned: cents,
  activity: cents,
  available: cents,
  held: cents,
  holdable: cents.describe('The most To Assign can hold this month'),
  categories: z.array(planCategoryAnswer),
  incomeCategories: z.array(z.object({ category: z.number().int(), name: z.string(), activity: cents })),
  uncategorized: z
    .object({ count: z.number().int(), amount: cents })
    .describe("Uncategorised counted on-plan transactions up to the month's end"),
  moves: z.array(
    z.object({
      id: z.number().int(),
      date: isoDate,
      from: z.number().int().nullable().describe('Category id; null: To Assign'),
      to: z.number().int().nullable().describe('Category id; null: To Assign'),
      amount: cents,
    }),
  ),
}) satisfies z.ZodType<PlanDto>;

export const categoryMergeAnswer = z.object({
  category: categoryAnswer.describe('The category everything moved to'),
  moved: categoryUsageAnswer,
}) satisfies z.ZodType<CategoryMergeResult>;

export const transactionAnswer = transactionAnswerSchema;

export const splitAnswer = z.object({
  parentTransaction: transactionAnswer,
  childTransactions: z.array(transactionAnswer),
}) satisfies z.ZodType<SplitDetails>;

export const batchAnswer = z.object({
  batchId: z.string(),
  transactionCount: z.number().int(),
  uploadDate: timestamp,
  account: z.string().nullable(),
  fileName: z.string().nullable(),
}) satisfies z.ZodType<BatchDto>;

export const deletedBatchAnswer = z.object({ message: z.string(), deleted: z.number().int() });

export const fixSplitAnswer = z.object({
  message: z.number().int().describe('How many transactions were fixed'),
  fixed: z.number().int(),
});

export const budgetAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  startDate: isoDate,
  endDate: isoDate,
  amount: cents,
}) satisfies z.ZodType<BudgetDto>;

export const lineItemAnswer = z.object({
  id: z.number().int(),
  budgetId: z.number().int(),
  name: z.string(),
  amount: cents,
  type: z.enum(LINE_ITEM_TYPES),
  relatedCategories: z.array(z.string()),
}) satisfies z.ZodType<LineItemDto>;

export const savedBudgetAnswer = z.object({
  budget: budgetAnswer,
  lineItems: z.array(lineItemAnswer),
}) satisfies z.ZodType<SavedBudget>;

const groupType = z.enum([...LINE_ITEM_TYPES, 'Untracked']);
const lineItemActual = z.object({
  id: z.number().int(),
  name: z.string(),
  type: groupType,
  budgeted: cents,
  actual: cents,
  transactionCount: z.number().int(),
  categories: z.array(z.string()),
  transactionIds: z.array(z.number().int()),
});

export const budgetOverviewAnswer = z.object({
  budget: budgetAnswer,
  lineItems: z.array(lineItemAnswer),
  transactions: z.array(transactionAnswer),
  overview: z.object({
    typeTotals: z.array(z.object({ type: z.enum(TRANSACTION_TYPES), total: cents, count: z.number().int() })),
    lineItems: z.array(lineItemActual),
    untracked: lineItemActual,
    byType: z.array(z.object({ type: groupType, items: z.array(lineItemActual), budgeted: cents, actual: cents })),
    budgeted: z.object({ income: cents, fixed: cents, variable: cents, notCounted: cents, net: cents }),
    actual: z.object({ income: cents, fixed: cents, variable: cents, notCounted: cents, untracked: cents, net: cents }),
    splits: z.object({ parentCount: z.number().int(), childCount: z.number().int(), childTotal: cents }),
    transactionCount: z.number().int(),
    total: cents,
    currency: homeCurrencyField.optional(),
    noRate: noRateField.optional(),
  }) satisfies z.ZodType<BudgetOverview>,
});

export const envelopeAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  categories: z.array(z.string()),
  color: z.string(),
  isActive: z.boolean(),
  transactions: z.array(transactionAnswer),
  transactionCount: z.number().int(),
  total: cents,
  currency: homeCurrencyField,
  noRate: noRateField,
}) satisfies z.ZodType<EnvelopeDto>;

export const registerRowAnswer = transactionAnswer.extend({ runningBalance: cents });

export const reconcileAnswer = z.object({
  account: accountAnswer,
  statementDate: isoDate,
  statementBalance: cents,
  registerBalance: cents,
  difference: cents,
  adjustedBalance: cents,
  transactionsAfter: z.array(registerRowAnswer),
}) satisfies z.ZodType<ReconcileResult>;

export const importProfileAnswer = z.object({
  accountId: z.number().int(),
  mapping: z.looseObject({ header: z.boolean() }).describe('The column mapping (see POST /api/upload)'),
  columnCount: z.number().int(),
  headers: z.array(z.string()),
  updatedAt: timestamp,
}) satisfies z.ZodType<Pick<ImportProfileDto, 'accountId' | 'columnCount' | 'headers' | 'updatedAt'>>;

/** The upload's answer; a dry run adds the whole preview (format, columns, rows, notes, ...). */
export const importAnswer = z.looseObject({
  message: z.string(),
  batchId: z.string().nullable(),
  imported: z.number().int(),
  duplicates: z.number().int(),
  skipped: z.number().int(),
  warnings: z.array(z.string()),
  dryRun: z.literal(true).optional().describe('Present on a dry run, with the preview fields'),
  transfers: importTransfersSchema
    .optional()
    .describe('Transfers found between the new rows and the other accounts: linked at once, or offered to confirm'),
}) satisfies z.ZodType<ImportResult>;

export const monthlyReportAnswer = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/),
  income: cents,
  expenses: cents,
  net: cents,
  byCategory: z.record(z.string(), cents).describe('Category name (or Uncategorized) -> signed cents'),
  currency: z
    .string()
    .optional()
    .describe("The home currency every figure is in (minor units); other currencies converted at their date's rate"),
  noRate: z
    .number()
    .int()
    .optional()
    .describe('Transactions of the month left out: no rate within 7 days of their date converts their currency'),
}) satisfies z.ZodType<MonthlyReportRow>;

export const payeeAnswer = z.object({
  payee: z.string(),
  count: z.number().int(),
  total: cents,
  currency: homeCurrencyField.optional(),
  noRate: noRateField.optional(),
}) satisfies z.ZodType<PayeeTotal>;

const importCounts = z.object({
  accounts: z.number().int(),
  categories: z.number().int(),
  batches: z.number().int(),
  transactions: z.number().int(),
  budgets: z.number().int(),
  lineItems: z.number().int(),
  envelopes: z.number().int(),
  rules: z.number().int(),
  schedules: z.number().int(),
  planAssigned: z.number().int(),
  planMoves: z.number().int(),
  planHolds: z.number().int(),
});
export const userDataImportAnswer = z.object({
  message: z.string(),
  imported: importCounts,
}) satisfies z.ZodType<UserDataImportResult>;

const ruleCondition = z.union([
  z.object({
    field: z.literal('description'),
    op: z.enum(['contains', 'startsWith', 'equals', 'matches']),
    value: z.string(),
  }),
  z.object({ field: z.literal('amount'), op: z.enum(['eq', 'lt', 'gt']), value: cents }),
  z.object({ field: z.literal('amount'), op: z.literal('between'), value: z.tuple([cents, cents]) }),
  z.object({ field: z.literal('account'), op: z.literal('equals'), value: z.string() }),
]);

export const ruleAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  conditions: z.array(ruleCondition),
  actions: z.object({
    category: z.string().optional(),
    type: z.enum(TRANSACTION_TYPES).optional(),
    description: z.string().optional(),
  }),
  priority: z.number().int(),
  enabled: z.boolean(),
}) satisfies z.ZodType<RuleDto>;

export const ruleCountAnswer = z.object({
  matched: z.number().int(),
  total: z.number().int(),
  sample: z.array(z.object({ id: z.number().int(), postDate: isoDate, description: z.string(), amount: cents })),
}) satisfies z.ZodType<RuleMatchCount>;

export const ruleApplyAnswer = z.object({
  dryRun: z.boolean(),
  matched: z.number().int(),
  changed: z.number().int(),
  changes: z.array(
    z.object({
      id: z.number().int(),
      postDate: isoDate,
      description: z.string().describe('The description before any rename'),
      amount: cents,
      field: z.enum(RULE_ACTION_FIELDS),
      from: z.string().nullable(),
      to: z.string(),
      ruleId: z.number().int(),
    }),
  ),
  truncated: z.boolean(),
}) satisfies z.ZodType<ApplyRulesResult>;

export const suggestionAnswer = z.object({
  category: z.string().nullable(),
  confidence: z.number().min(0).max(1),
  reason: z.string(),
}) satisfies z.ZodType<SuggestionDto>;

const scheduleEnd = z
  .union([z.literal('never'), z.object({ after: z.number().int() }), z.object({ until: isoDate })])
  .describe("'never', { after: n occurrences } or { until: date }");

export const scheduleAnswer = z.object({
  id: z.number().int(),
  name: z.string(),
  account: z.string().describe('Account name'),
  accountId: z.number().int(),
  description: z.string(),
  amount: cents,
  currency: z.string().describe("The account's currency (ISO 4217): the amount is in its minor unit"),
  amountTolerance: z.number().describe('Percent the amount may differ by and still match (0 = exactly)'),
  category: z.string().nullable(),
  recurrence: z.string().describe('RFC 5545 RRULE, e.g. FREQ=MONTHLY;BYMONTHDAY=31'),
  recurrenceText: z.string().describe('The recurrence in words'),
  weekendRule: z.enum(WEEKEND_RULES),
  mode: z.enum(SCHEDULE_MODES).describe('post: transactions are created; expect: imported or entered rows are matched'),
  window: z.number().int().describe('Days either side of an occurrence in which its row may come'),
  startDate: isoDate,
  end: scheduleEnd,
  nextDate: isoDate.nullable().describe('The next occurrence still upcoming or due'),
  missed: z.number().int().describe('Occurrences past their window without a match'),
}) satisfies z.ZodType<ScheduleDto>;

export const occurrenceAnswer = z.object({
  id: z.number().int().nullable().describe('null for an occurrence still ahead (not stored yet)'),
  scheduleId: z.number().int(),
  scheduleName: z.string(),
  description: z.string(),
  account: z.string(),
  accountId: z.number().int(),
  scheduledDate: isoDate.describe("The schedule's own day for it"),
  date: isoDate.describe('The day it falls on, after the weekend rule'),
  amount: cents,
  currency: z.string().describe("The account's currency (ISO 4217): the amount is in its minor unit"),
  status: z.enum(OCCURRENCE_STATUSES),
  transactionId: z.number().int().nullable().describe('The transaction it was posted as or matched to'),
}) satisfies z.ZodType<OccurrenceDto>;

export const upcomingAnswer = z.object({
  startDate: isoDate,
  endDate: isoDate,
  occurrences: z.array(
    occurrenceAnswer.extend({
      projectedBalance: cents.describe("Its account's balance after it (stored rows and occurrences before it)"),
    }),
  ),
}) satisfies z.ZodType<UpcomingDto>;

export const scheduleSuggestionAnswer = z.object({
  name: z.string(),
  account: z.string(),
  accountId: z.number().int(),
  description: z.string(),
  amount: cents.describe('The median amount'),
  currency: z.string().describe("The account's currency (ISO 4217): the amounts are in its minor unit"),
  amountRange: z.object({ min: cents, max: cents }),
  amountTolerance: z.number(),
  interval: z.string().describe('weekly, every 2 weeks, monthly, every 3 months or yearly'),
  recurrence: z.string(),
  occurrences: z.number().int().describe('How many past rows follow it'),
  lastDate: isoDate,
  nextDate: isoDate,
}) satisfies z.ZodType<ScheduleSuggestionDto>;

export const searchTotalAnswer = z.object({
  net: cents.describe(
    'Signed minor units of currency: counted rows (split parts, never their originals), transfers between accounts left out',
  ),
  currency: homeCurrencyField,
  converted: z.boolean().describe('Some row was in another currency and was converted'),
  count: z.number().int().describe('Rows the net sums (those with no rate included)'),
  noRate: noRateField,
  transfersLeftOut: z.number().int().describe('Counted rows left out as transfers between accounts'),
}) satisfies z.ZodType<SearchTotalDto>;
