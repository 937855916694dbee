import type { EntityManager } from '@mikro-orm/knex';
import type { SuggestInput, SuggestionDto } from '../../../shared/schemas/suggest';
import { addRow, learn, memoNormalizer, suggest, type LearnRow, type SuggestionModel, type SuggestRow } from '../../../shared/suggest';
import { countedRowSql, dialectOf, selectRows, TRANSACTION_TABLE, type Dialect } from '../../db/sql';

/**
 * What the learner learns from: the user's categorised counted rows (split parts included,
 * split parents not), except rows whose category was itself suggested and not yet reviewed
 * (learning from them would only repeat the learner's own guesses).
 */
const LEARNED_ROWS = `t.user_id = ? and t.category_id is not null and ${countedRowSql('t')} and (t.category_source is null or t.category_source <> 'suggested')`;

/**
 * A checksum of everything the model depends on (rows added, removed, recategorised, re-described,
 * re-amounted; categories added), read in one statement. When it is unchanged, the cached model
 * is still right; any write through any path (API, import, restore, rules) changes it.
 */
function fingerprintSql(dialect: Dialect): string {
  // Floating-point sums (SQLite's total()): products of ids and amounts outgrow 32-bit integers.
  const total = (expression: string) => (dialect === 'postgresql' ? `coalesce(sum((${expression})::float8), 0)` : `total(${expression})`);
  const float = (column: string) => (dialect === 'postgresql' ? `${column}::float8` : column);
  const firstCodePoint = dialect === 'postgresql' ? 'ascii(t.description)' : 'unicode(t.description)';
  return `select count(*) as n, max(t.id) as m, ${total(`${float('t.id')} * t.category_id`)} as c, ${total(`${float('t.amount')} * (t.id % 9973)`)} as a,
    ${total(`length(t.description) * (t.id % 7919) + ${firstCodePoint}`)} as d,
    (select count(*) + ${total('id')} from category where user_id = ?) as k
  from ${TRANSACTION_TABLE} t where ${LEARNED_ROWS}`;
}
const FINGERPRINT_SQL = { sqlite: fingerprintSql('sqlite'), postgresql: fingerprintSql('postgresql') };

export interface CachedModel {
  /** The fingerprint of the rows the model was learned from. */
  fingerprint: string;
  model: SuggestionModel;
}

/** Models per app (one per ORM configuration: tests run several servers in one process), per user. */
const caches = new WeakMap<object, Map<number, CachedModel>>();
/** Users whose model is kept; the least recently used beyond this is dropped. */
const CACHED_USERS = 16;

function cacheOf(em: EntityManager): Map<number, CachedModel> {
  let cache = caches.get(em.config);
  if (!cache) {
    cache = new Map();
    caches.set(em.config, cache);
  }
  return cache;
}

async function fingerprint(em: EntityManager, userId: number): Promise<string> {
  const [row] = await selectRows<Record<string, number | null>>(em, FINGERPRINT_SQL[dialectOf(em)], [userId, userId]);
  return JSON.stringify(row ?? {});
}

/** The user's model, rebuilt only when their categorised rows changed since it was built. */
export async function suggestionModel(em: EntityManager, userId: number): Promise<SuggestionModel> {
  return (await suggestionModelEntry(em, userId)).model;
}

/** The user's model with the fingerprint it is current at (see `suggestionModel`). */
export async function suggestionModelEntry(em: EntityManager, userId: number): Promise<CachedModel> {
  const cache = cacheOf(em);
  const current = await fingerprint(em, userId);
  const cached = cache.get(userId);
  if (cached && cached.fingerprint === current) {
    cache.delete(userId);
    cache.set(userId, cached);
    return cached;
  }
  const rows = await selectRows<LearnRow>(
    em,
    `select t.description as description, t.amount as amount, c.name as category
       from ${TRANSACTION_TABLE} t join category c on c.id = t.category_id where ${LEARNED_ROWS}`,
    [userId],
  );
  const entry = { fingerprint: current, model: learn(rows) };
  cache.delete(userId);
  cache.set(userId, entry);
  // Oldest first (a Map keeps insertion order, and a user's entry was just moved to the end).
  for (const oldest of cache.keys()) {
    if (cache.size <= CACHED_USERS) break;
    cache.delete(oldest);
  }
  return entry;
}

/** The user's cached model when it is current (one fingerprint read), else null; nothing is learned. */
export async function currentModelEntry(em: EntityManager, userId: number): Promise<CachedModel | null> {
  const cached = cacheOf(em).get(userId);
  if (!cached) return null;
  return cached.fingerprint === (await fingerprint(em, userId)) ? cached : null;
}

/**
 * Called in an import's transaction once its batch is written, with the model that was current
 * before it: answers the step to run after the commit, which adds the batch's learnable rows to
 * that model and moves its fingerprint on, so the next suggestion (or import) does not relearn
 * the whole history. If anything else replaced the cached model meanwhile, the step does nothing
 * (and any other change is caught by the fingerprint, as always).
 */
export async function learnBatchAfterCommit(em: EntityManager, userId: number, entry: CachedModel, batchId: string): Promise<() => void> {
  const rows = await selectRows<LearnRow>(
    em,
    `select t.description as description, t.amount as amount, c.name as category
       from ${TRANSACTION_TABLE} t join category c on c.id = t.category_id where t.batch_id = ? and ${LEARNED_ROWS}`,
    [batchId, userId],
  );
  const after = await fingerprint(em, userId);
  return () => {
    const cache = cacheOf(em);
    if (cache.get(userId) !== entry) return;
    const normalize = memoNormalizer();
    for (const row of rows) addRow(entry.model, row, normalize);
    entry.fingerprint = after;
  };
}

/** Suggestions for rows, in order, from the user's own history only. */
export function suggestWith(model: SuggestionModel, rows: readonly SuggestRow[]): SuggestionDto[] {
  const normalize = memoNormalizer(rows.length + 1);
  return rows.map((row) => suggest(model, row, normalize));
}

export async function suggestCategories(em: EntityManager, userId: number, input: SuggestInput): Promise<SuggestionDto[]> {
  if (input.transactions.length === 0) return [];
  return suggestWith(await suggestionModel(em, userId), input.transactions);
}
