import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import type { CreateEnvelopeInput, EnvelopeDto, EnvelopeRange, UpdateEnvelopeInput } from '../../../shared/schemas/envelopes';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { countedRowSql } from '../../db/sql';
import { selectTransactionsPage } from '../transactions/transactions.query';
import { User } from '../users/user.entity';
import { Envelope } from './envelope.entity';
import { nameKey } from '../../../shared/names';
import { findOwned } from '../../db/find-owned';

const UNCATEGORIZED = 'uncategorized';

async function ownEnvelope(em: EntityManager, userId: number, id: number): Promise<Envelope> {
  return findOwned(em, Envelope, userId, id);
}

function toEnvelopeDto(envelope: Envelope, transactions: TransactionDto[]): EnvelopeDto {
  let total = 0;
  for (const tx of transactions) total += tx.amount;
  return {
    id: envelope.id,
    name: envelope.name,
    description: envelope.description ?? null,
    categories: envelope.categories,
    color: envelope.color,
    isActive: envelope.isActive,
    transactions,
    transactionCount: transactions.length,
    total,
  };
}

function keyOf(category: string | null): string {
  return category ? nameKey(category) : UNCATEGORIZED;
}

/**
 * Every envelope of the user with the transactions linked to it: those whose category is
 * among the envelope's categories (regardless of case) within the optional date range,
 * split parents excluded (their parts count instead).
 */
export async function listEnvelopes(em: EntityManager, userId: number, range: EnvelopeRange = {}): Promise<EnvelopeDto[]> {
  const envelopes = await em.find(Envelope, { user: userId }, { orderBy: { name: 'asc', id: 'asc' } });
  const keys = new Set<string>();
  for (const envelope of envelopes) for (const name of envelope.categories) keys.add(nameKey(name));
  const byKey = new Map<string, TransactionDto[]>();
  if (keys.size > 0) {
    const named = [...keys].filter((key) => key !== UNCATEGORIZED);
    const clauses = [countedRowSql('t')];
    const params: unknown[] = [];
    const membership: string[] = [];
    if (named.length > 0) {
      membership.push(`c.name_key in (${named.map(() => '?').join(', ')})`);
      params.push(...named);
    }
    if (keys.has(UNCATEGORIZED)) membership.push('t.category_id is null');
    clauses.push(`(${membership.join(' or ')})`);
    if (range.startDate) {
      clauses.push('t.post_date >= ?');
      params.push(range.startDate);
    }
    if (range.endDate) {
      clauses.push('t.post_date <= ?');
      params.push(range.endDate);
    }
    const { rows } = await selectTransactionsPage(em, userId, clauses.join(' and '), params, {}, 'narrow the range with start_date and end_date');
    for (const tx of rows) {
      const key = keyOf(tx.category);
      const list = byKey.get(key);
      if (list) list.push(tx);
      else byKey.set(key, [tx]);
    }
  }
  return envelopes.map((envelope) => {
    const seen = new Set<string>();
    const transactions: TransactionDto[] = [];
    for (const name of envelope.categories) {
      const key = nameKey(name);
      if (seen.has(key)) continue;
      seen.add(key);
      transactions.push(...(byKey.get(key) ?? []));
    }
    transactions.sort((a, b) => (a.postDate < b.postDate ? 1 : a.postDate > b.postDate ? -1 : b.id - a.id));
    return toEnvelopeDto(envelope, transactions);
  });
}

export async function getEnvelope(em: EntityManager, userId: number, id: number, range: EnvelopeRange = {}): Promise<EnvelopeDto> {
  await ownEnvelope(em, userId, id);
  const found = (await listEnvelopes(em, userId, range)).find((envelope) => envelope.id === id);
  if (!found) throw new AppError('NOT_FOUND', `Envelope ${id} not found`);
  return found;
}

/** Writes and reads back in one transaction: a failure answering leaves nothing saved. */
export async function createEnvelope(em: EntityManager, userId: number, input: CreateEnvelopeInput): Promise<EnvelopeDto> {
  return em.transactional(async (tx) => {
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
    return getEnvelope(tx, userId, envelope.id);
  });
}

export async function updateEnvelope(
  em: EntityManager,
  userId: number,
  id: number,
  input: UpdateEnvelopeInput,
): Promise<EnvelopeDto> {
  return em.transactional(async (tx) => {
    const envelope = await ownEnvelope(tx, userId, id);
    if (input.name !== undefined) envelope.name = input.name;
    if (input.description !== undefined) envelope.description = input.description;
    if (input.categories !== undefined) envelope.categories = input.categories;
    if (input.color !== undefined) envelope.color = input.color;
    if (input.isActive !== undefined) envelope.isActive = input.isActive;
    await tx.flush();
    return getEnvelope(tx, userId, id);
  });
}

/** Transactions are linked by category, so deleting an envelope changes no transaction. */
export async function deleteEnvelope(em: EntityManager, userId: number, id: number): Promise<{ message: string }> {
  const envelope = await ownEnvelope(em, userId, id);
  em.remove(envelope);
  await em.flush();
  return { message: `Envelope '${envelope.name}' deleted` };
}
