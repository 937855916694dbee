import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig, type AppConfig } from '../config/config';
import { localIsoDate } from '../../shared/dates/calendar';
import { registerInputSchema, type AuthResult } from '../../shared/schemas/auth';
import type { BudgetDto } from '../../shared/schemas/budgets';
import type { ImportResult } from '../../shared/schemas/import';
import type { BatchDto, TransactionDto } from '../../shared/schemas/transactions';
import { User } from '../modules/users/user.entity';
import { DEMO_CATEGORIES, toBankCsv } from './demo-ledger';
import {
  DEFAULT_DEMO_INTENSITY,
  DEFAULT_DEMO_SEED,
  DEMO_ENVELOPES,
  demoBatches,
  demoBudgets,
  demoLedger,
  planSplits,
  retypeTargets,
} from './demo-plan';
import { multipartBody } from './multipart';
import { nameKey } from '../../shared/names';

export const DEFAULT_DEMO_USERNAME = 'demo';
export const DEFAULT_DEMO_PASSWORD = 'demo-password';

export interface DemoOptions {
  /** The app's configuration; `loadConfig()` (the environment, as the server reads it) when absent. */
  config?: AppConfig;
  username?: string;
  password?: string;
  /** `YYYY-MM-DD`; the local date when absent. The data is deterministic given this date and the seed. */
  today?: string;
  seed?: number;
  /** Scales the everyday purchases (default 4: a household, a few thousand rows a year). */
  intensity?: number;
  /** Progress lines. */
  log?: (line: string) => void;
}

export interface DemoSummary {
  username: string;
  password: string;
  userId: number;
  databaseFile: string;
  from: string;
  to: string;
  accounts: number;
  categories: number;
  /** Every stored transaction, split parts included. */
  transactions: number;
  imported: number;
  batches: number;
  splitParents: number;
  splitParts: number;
  budgets: number;
  lineItems: number;
  envelopes: number;
  inactiveEnvelopes: number;
  elapsedMs: number;
}

/** The username is taken (compared regardless of case): the demo leaves that user's data alone. */
export class DemoUserExistsError extends Error {
  constructor(
    readonly username: string,
    readonly databaseFile: string,
  ) {
    super(
      `A user named '${username}' already exists in ${databaseFile}. The demo never touches an existing user's data, ` +
        'so nothing was changed. Choose another name with --username (or DEMO_USERNAME), or point DATA_DIR at another folder.',
    );
    this.name = 'DemoUserExistsError';
  }
}

/** Bad demo options (a username or password the app would refuse). */
export class DemoOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DemoOptionsError';
  }
}

/** A call of the demo answered outside 2xx. */
class DemoCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'DemoCallError';
  }
}

interface CallOptions {
  token?: string;
  body?: unknown;
  multipart?: { payload: Buffer; contentType: string };
}

/** One in-process request through the whole stack (auth, validation, services). */
async function call<T>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: CallOptions = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | Buffer | undefined;
  if (options.multipart) {
    headers['content-type'] = options.multipart.contentType;
    payload = options.multipart.payload;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(options.body);
  }
  const res = await app.inject({ method, url, headers, payload });
  if (res.statusCode < 200 || res.statusCode >= 300) {
    throw new DemoCallError(res.statusCode, `${method} ${url} answered ${res.statusCode}: ${res.body}`);
  }
  return (res.body ? res.json() : undefined) as T;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Creates a demo user with a year of data through the app's own API, in process: the app is
 * built with its builder on the configured database (migrations run as on startup), called with
 * `app.inject`, then closed. SQLite runs in WAL mode with a busy timeout, so this also works
 * while the server is running on the same data folder.
 *
 * Refuses (DemoUserExistsError, nothing changed) when the username exists regardless of case.
 * If anything fails after the user was created, that user (and by cascade all it got) is
 * removed again, so a retry starts clean.
 */
export async function runDemo(options: DemoOptions = {}): Promise<DemoSummary> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const config = options.config ?? loadConfig();
  const credentials = registerInputSchema.safeParse({
    username: options.username ?? DEFAULT_DEMO_USERNAME,
    password: options.password ?? DEFAULT_DEMO_PASSWORD,
  });
  if (!credentials.success) throw new DemoOptionsError(credentials.error.issues.map((i) => i.message).join('; '));
  const { username, password } = credentials.data;
  const today = options.today ?? localIsoDate(new Date());
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const intensity = options.intensity ?? DEFAULT_DEMO_INTENSITY;
  if (!Number.isInteger(seed)) throw new DemoOptionsError('seed must be a whole number');
  if (!(intensity > 0 && intensity <= 20))
    throw new DemoOptionsError('intensity must be a number above 0 and at most 20');
  const ledger = demoLedger(today, seed, intensity); // validates `today`

  // This app instance never listens: registration is opened for it alone, so the demo user can be
  // created through the real register route even when ALLOW_REGISTRATION=false closes the public
  // sign-up form of the running server. Access tokens live long enough for a slow disk.
  const app = await buildApp(
    { ...config, allowRegistration: true, accessTokenTtlSeconds: Math.max(config.accessTokenTtlSeconds, 3600) },
    { logger: false },
  );
  try {
    const existing = await app.orm.em.fork().findOne(User, { usernameKey: nameKey(username) });
    if (existing) throw new DemoUserExistsError(existing.username, config.databaseFile);
    log(`Creating user '${username}' in ${config.databaseFile}`);
    const auth = await call<AuthResult>(app, 'POST', '/api/auth/register', { body: { username, password } }).catch(
      (error: unknown) => {
        // Someone took the name between the check and now (the server may be running meanwhile).
        if (error instanceof DemoCallError && error.status === 409)
          throw new DemoUserExistsError(username, config.databaseFile);
        throw error;
      },
    );
    try {
      const summary = await populate(app, auth, password, ledger, log);
      return {
        ...summary,
        username,
        password,
        userId: auth.user.id,
        databaseFile: config.databaseFile,
        elapsedMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      await app.orm.em.fork().nativeDelete(User, { id: auth.user.id });
      log(`Failed; removed the half-made user '${username}' again.`);
      throw error;
    }
  } finally {
    await app.close();
  }
}

type Populated = Omit<DemoSummary, 'username' | 'password' | 'userId' | 'databaseFile' | 'elapsedMs'>;
type DemoLedger = ReturnType<typeof demoLedger>;
/** A call as the demo user (their access token on every request). */
type UserCall = <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options?: CallOptions) => Promise<T>;

async function populate(
  app: FastifyInstance,
  auth: AuthResult,
  password: string,
  ledger: DemoLedger,
  log: (line: string) => void,
): Promise<Populated> {
  const asUser: UserCall = (method, url, options = {}) =>
    call(app, method, url, { token: auth.accessToken, ...options });
  for (const account of ledger.accounts) {
    await asUser('POST', '/api/accounts', {
      body: { name: account.name, type: account.type, balance: account.balance },
    });
  }
  // Every demo category up front, as a newcomer would set them up before the first import.
  for (const name of DEMO_CATEGORIES) await asUser('POST', '/api/categories', { body: { name } });
  const imported = await importBatches(asUser, ledger, log);
  await retypeAndSplit(asUser, ledger, log);
  const { budgets, lineItems } = await saveBudgetsAndEnvelopes(asUser, ledger, log);

  // Sign in the way a person will (proves the credentials), then end both sessions the demo opened.
  const login = await call<AuthResult>(app, 'POST', '/api/auth/login', {
    body: { username: auth.user.username, password },
  });
  await call(app, 'POST', '/api/auth/logout', { token: login.refreshToken });
  const counts = await countStored(asUser);
  await call(app, 'POST', '/api/auth/logout', { token: auth.refreshToken });
  return {
    ...counts,
    from: ledger.window.start,
    to: ledger.window.today,
    imported,
    budgets,
    lineItems,
    envelopes: DEMO_ENVELOPES.length,
    inactiveEnvelopes: DEMO_ENVELOPES.filter((e) => !e.isActive).length,
  };
}

/** Uploads the ledger as bank CSV files, one batch each; answers how many rows were stored. */
async function importBatches(asUser: UserCall, ledger: DemoLedger, log: (line: string) => void): Promise<number> {
  let imported = 0;
  const batches = demoBatches(ledger);
  for (const batch of batches) {
    const body = multipartBody(
      { account: batch.account.name, transactionType: batch.transactionType, dateFormat: 'MM/DD/YYYY' },
      { field: 'file', fileName: batch.fileName, content: toBankCsv(batch.rows) },
    );
    const result = await asUser<ImportResult>('POST', '/api/upload', { multipart: body });
    if (!result.batchId || result.imported !== batch.rows.length) {
      throw new Error(
        `Importing ${batch.fileName} stored ${result.imported} of ${batch.rows.length} rows: ${result.message}`,
      );
    }
    imported += result.imported;
  }
  log(`Imported ${plural(imported, 'transaction')} in ${batches.length} CSV batches`);
  return imported;
}

/** Sets the type of the transfers and refunds, and splits the purchases demo-plan.ts chooses. */
async function retypeAndSplit(asUser: UserCall, ledger: DemoLedger, log: (line: string) => void): Promise<void> {
  const range = `start_date=${ledger.window.start}&end_date=${ledger.window.today}`;
  const stored = await asUser<TransactionDto[]>('GET', `/api/transactions?${range}`);
  const retype = retypeTargets(stored);
  if (retype.transfer.length)
    await asUser('PUT', '/api/transactions/bulk', {
      body: { transactionIds: retype.transfer, updates: { type: 'transfer' } },
    });
  if (retype.credit.length)
    await asUser('PUT', '/api/transactions/bulk', {
      body: { transactionIds: retype.credit, updates: { type: 'credit' } },
    });
  const splits = planSplits(stored);
  for (const split of splits) {
    await asUser('POST', `/api/transactions/${split.transactionId}/split`, { body: { splits: split.splits } });
  }
  log(`Split ${plural(splits.length, 'transaction')}`);
}

async function saveBudgetsAndEnvelopes(
  asUser: UserCall,
  ledger: DemoLedger,
  log: (line: string) => void,
): Promise<{ budgets: number; lineItems: number }> {
  let lineItems = 0;
  const budgets = demoBudgets(ledger);
  for (const budget of budgets) {
    const saved = await asUser<{ budget: BudgetDto; lineItems: unknown[] }>('POST', '/api/budgets/save', {
      body: budget,
    });
    lineItems += saved.lineItems.length;
  }
  for (const envelope of DEMO_ENVELOPES) await asUser('POST', '/api/envelopes', { body: envelope });
  log(
    `Saved ${plural(budgets.length, 'budget')} (${plural(lineItems, 'line item')}) and ${plural(DEMO_ENVELOPES.length, 'envelope')}`,
  );
  return { budgets: budgets.length, lineItems };
}

/** What the user now has, as the API answers it. */
async function countStored(
  asUser: UserCall,
): Promise<Pick<Populated, 'accounts' | 'categories' | 'transactions' | 'batches' | 'splitParents' | 'splitParts'>> {
  const all = await asUser<TransactionDto[]>('GET', '/api/transactions?start_date=1900-01-01&end_date=9999-12-31');
  const batches = await asUser<BatchDto[]>('GET', '/api/transactions/batches/list');
  const categories = await asUser<unknown[]>('GET', '/api/categories');
  const accounts = await asUser<unknown[]>('GET', '/api/accounts');
  return {
    accounts: accounts.length,
    categories: categories.length,
    transactions: all.length,
    batches: batches.length,
    splitParents: all.filter((tx) => tx.isSplit).length,
    splitParts: all.filter((tx) => tx.parentTransactionId !== null).length,
  };
}

/** The lines printed after a successful run. */
export function formatSummary(summary: DemoSummary, url = 'http://localhost:3000', startCommand = 'npm start'): string {
  return [
    '',
    `Demo data ready (${(summary.elapsedMs / 1000).toFixed(1)} s), ${summary.from} to ${summary.to}:`,
    `  ${plural(summary.accounts, 'account')}, ${summary.categories} categories`,
    `  ${plural(summary.transactions, 'transaction')} (${plural(summary.imported, 'imported row')} in ${summary.batches} CSV batches, ` +
      `${summary.splitParents} split into ${summary.splitParts} parts)`,
    `  ${plural(summary.budgets, 'budget')} with ${plural(summary.lineItems, 'line item')}, ` +
      `${plural(summary.envelopes, 'envelope')} (${summary.inactiveEnvelopes} inactive)`,
    '',
    `Sign in: open ${url} (start the server with \`${startCommand}\` if it is not running)`,
    `  username: ${summary.username}`,
    `  password: ${summary.password}`,
  ].join('\n');
}
