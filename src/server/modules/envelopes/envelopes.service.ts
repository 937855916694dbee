import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import type {
  CreateEnvelopeInput,
  EnvelopeDto,
  EnvelopeRange,
  UpdateEnvelopeInput,
} from '../../../shared/schemas/envelopes';
import { MAX_LIST_ROWS } from '../../../shared/limits';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { readsOf, tooManyRows } from '../../db/transaction-reads';
import { categoryKeysById } from '../categories/categories.service';
import { User } from '../users/user.entity';
import { Envelope } from './envelope.entity';
import { nameKey } from '../../../shared/names';
import { findOwned } from '../../db/find-owned';
import { recorded } from '../history/recorder';

async function ownEnvelope(em: EntityManager, userId: number, id: number): Promise<Envelope> {
  return findOwned(em, Envelope, userId, id);
}

/** An envelope with its transactions as the JSON array the database wrote. */
export interface EnvelopeParts {
  envelope: Envelope;
  transactionsJson: Buffer;
  transactionCount: number;
  total: number;
  /** The home currency `total` is in. */
  currency: string;
  /** Linked rows in another currency left out of `total`: no rate within 7 days of their date. */
  noRate: number;
}

/** An envelope's answer with its transactions in `transactions` (objects, or the JSON as it is). */
export function envelopeFields(parts: EnvelopeParts, transactions: unknown): [string, unknown][] {
  const { envelope } = parts;
  return [
    ['id', envelope.id],
    ['name', envelope.name],
    ['description', envelope.description ?? null],
    ['categories', envelope.categories],
    ['color', envelope.color],
    ['isActive', envelope.isActive],
    ['transactions', transactions],
    ['transactionCount', parts.transactionCount],
    ['total', parts.total],
    ['currency', parts.currency],
    ['noRate', parts.noRate],
  ];
}

function toEnvelopeDto(parts: EnvelopeParts): EnvelopeDto {
  const transactions = JSON.parse(parts.transactionsJson.toString('utf8')) as TransactionDto[];
  return Object.fromEntries(envelopeFields(parts, transactions)) as unknown as EnvelopeDto;
}

interface CategoryKeySum {
  count: number;
  total: number;
  missing: number;
}

/** Count and signed total (converted into the home currency) of the user's counted rows in the range per category key. */
async function sumsByCategoryKey(
  em: EntityManager,
  userId: number,
  range: EnvelopeRange,
): Promise<Map<string, CategoryKeySum>> {
  const categoryKey = await categoryKeysById(em, userId);
  const sums = new Map<string, CategoryKeySum>();
  for (const row of await readsOf(em).categorySums(userId, range)) {
    const key = categoryKey(row.categoryId);
    const sum = sums.get(key) ?? { count: 0, total: 0, missing: 0 };
    sum.count += row.count;
    sum.total += row.total;
    sum.missing += row.missing ?? 0;
    sums.set(key, sum);
  }
  return sums;
}

/**
 * Every envelope of the user with the transactions linked to it: those whose category is
 * among the envelope's categories (regardless of case) within the optional date range,
 * split parents excluded (their parts count instead). Counts and totals come from one GROUP BY;
 * each envelope's transactions are JSON text the database writes (newest first).
 */
export async function envelopesParts(
  em: EntityManager,
  userId: number,
  range: EnvelopeRange,
  onlyId?: number,
): Promise<EnvelopeParts[]> {
  const envelopes = await em.find(Envelope, { user: userId }, { orderBy: { name: 'asc', id: 'asc' } });
  const keysOf = (envelope: Envelope) => [...new Set(envelope.categories.map((name) => nameKey(name)))];
  const all = new Set(envelopes.flatMap(keysOf));
  const sums = all.size > 0 ? await sumsByCategoryKey(em, userId, range) : new Map<string, CategoryKeySum>();
  const currency = (await em.findOneOrFail(User, { id: userId })).homeCurrency;
  const linked = [...all].reduce((n, key) => n + (sums.get(key)?.count ?? 0), 0);
  if (linked > MAX_LIST_ROWS) throw tooManyRows(linked, 'narrow the range with start_date and end_date');
  const out: EnvelopeParts[] = [];
  for (const envelope of envelopes) {
    if (onlyId !== undefined && envelope.id !== onlyId) continue;
    const keys = keysOf(envelope);
    const transactionCount = keys.reduce((n, key) => n + (sums.get(key)?.count ?? 0), 0);
    const total = keys.reduce((n, key) => n + (sums.get(key)?.total ?? 0), 0);
    const noRate = keys.reduce((n, key) => n + (sums.get(key)?.missing ?? 0), 0);
    const transactionsJson =
      transactionCount === 0
        ? Buffer.from('[]')
        : (await readsOf(em).pageJson(userId, { ...range, categories: keys, counted: true })).json;
    out.push({ envelope, transactionsJson, transactionCount, total, currency, noRate });
  }
  return out;
}

/** Every envelope with its transactions, count and total (tRPC envelopes.list). */
export async function listEnvelopes(
  em: EntityManager,
  userId: number,
  range: EnvelopeRange = {},
): Promise<EnvelopeDto[]> {
  return (await envelopesParts(em, userId, range)).map(toEnvelopeDto);
}

export async function getEnvelope(
  em: EntityManager,
  userId: number,
  id: number,
  range: EnvelopeRange = {},
): Promise<EnvelopeDto> {
  await ownEnvelope(em, userId, id);
  const [found] = await envelopesParts(em, userId, range, id);
  if (!found) throw new AppError('NOT_FOUND', `Envelope ${id} not found`);
  return toEnvelopeDto(found);
}

/** Writes and reads back in one transaction: a failure answering leaves nothing saved. */
export async function createEnvelope(
  em: EntityManager,
  userId: number,
  input: CreateEnvelopeInput,
): Promise<EnvelopeDto> {
  return recorded(
    em,
    userId,
    'envelope',
    async (tx, recorder) => {
      const envelope = tx.create(Envelope, {
        user: tx.getReference(User, userId),
        name: input.name,
        description: input.description ?? null,
        categories: input.categories,
        color: input.color,
        isActive: input.isActive,
        createdAt: new Date().toISOString(),
      });
      await tx.flush();
      recorder.created('envelope', [envelope.id]);
      return getEnvelope(tx, userId, envelope.id);
    },
    (envelope) => `Created envelope “${envelope.name}”`,
  );
}

export async function updateEnvelope(
  em: EntityManager,
  userId: number,
  id: number,
  input: UpdateEnvelopeInput,
): Promise<EnvelopeDto> {
  return recorded(
    em,
    userId,
    'envelope',
    async (tx, recorder) => {
      const envelope = await ownEnvelope(tx, userId, id);
      await recorder.touch('envelope', [id]);
      if (input.name !== undefined) envelope.name = input.name;
      if (input.description !== undefined) envelope.description = input.description;
      if (input.categories !== undefined) envelope.categories = input.categories;
      if (input.color !== undefined) envelope.color = input.color;
      if (input.isActive !== undefined) envelope.isActive = input.isActive;
      await tx.flush();
      return getEnvelope(tx, userId, id);
    },
    (envelope) => `Changed envelope “${envelope.name}”`,
  );
}

/** Transactions are linked by category, so deleting an envelope changes no transaction. */
export async function deleteEnvelope(em: EntityManager, userId: number, id: number): Promise<{ message: string }> {
  return recorded(
    em,
    userId,
    'envelope',
    async (tx, recorder) => {
      const envelope = await ownEnvelope(tx, userId, id);
      await recorder.touch('envelope', [id]);
      tx.remove(envelope);
      await tx.flush();
      return { message: `Envelope '${envelope.name}' deleted` };
    },
    (answer) => answer.message,
  );
}
