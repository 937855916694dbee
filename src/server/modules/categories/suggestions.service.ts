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
 *
 * Integer arithmetic only, each term under 2^31 (PostgreSQL int) and each sum exact in a double:
 * a model learned from scratch computes the same figures from the rows it reads (`RowChecksum`),
 * so learning scans the rows once instead of once for the checksum and once for the model.
 * Categories and amounts count through two moduli each: a change goes unseen only when it moves
 * the value by a multiple of both (over 600 million). Descriptions count by their length and
 * first character: an edit that keeps both is not seen until the user's next other change.
 */
function fingerprintSql(dialect: Dialect): string {
  const firstCodePoint = dialect === 'postgresql' ? 'ascii(t.description)' : 'unicode(t.description)';
  return `select count(*) as n, coalesce(max(t.id), 0) as m, coalesce(sum((t.id % 9973 + 1) * (t.category_id % 65521) + t.category_id % 9967), 0) as c,
    coalesce(sum((t.id % 7919 + 1) * (t.amount % 65521) + t.amount % 9973), 0) as a,
    coalesce(sum((t.id % 7907 + 1) * length(t.description) + ${firstCodePoint}), 0) as d,
    (select count(*) from category where user_id = ?) as kn, (select coalesce(sum(id), 0) from category where user_id = ?) as ks
  from ${TRANSACTION_TABLE} t where ${LEARNED_ROWS}`;
}
const FINGERPRINT_SQL = { sqlite: fingerprintSql('sqlite'), postgresql: fingerprintSql('postgresql') };
/** What the category part of the checksum reads (and what learning reads to name categories). */
const CATEGORIES_SQL = 'select id, name from category where user_id = ?';

/** The checksum `fingerprintSql` computes, from the rows themselves (in any order). */
class RowChecksum {
  private n = 0;
  private m = 0;
  private c = 0;
  private a = 0;
  private d = 0;

  add(id: number, categoryId: number, amount: number, description: string): void {
    this.n++;
    if (id > this.m) this.m = id;
    this.c += ((id % 9973) + 1) * (categoryId % 65521) + (categoryId % 9967);
    this.a += ((id % 7919) + 1) * (amount % 65521) + (amount % 9973);
    // SQL counts characters (code points) and reads the first one's code point ('' adds nothing).
    if (description.length > 0) this.d += ((id % 7907) + 1) * codePoints(description) + (description.codePointAt(0) ?? 0);
  }

  value(categories: readonly { id: number }[]): string {
    let ks = 0;
    for (const category of categories) ks += category.id;
    return checksumText({ n: this.n, m: this.m, c: this.c, a: this.a, d: this.d, kn: categories.length, ks });
  }
}

function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const CHECKSUM_FIGURES = ['n', 'm', 'c', 'a', 'd', 'kn', 'ks'] as const;
type ChecksumFigures = Record<(typeof CHECKSUM_FIGURES)[number], number>;

function checksumText(figures: ChecksumFigures): string {
  return CHECKSUM_FIGURES.map((name) => figures[name]).join(':');
}

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
  const [row] = await selectRows<Record<keyof ChecksumFigures, number | string | null>>(em, FINGERPRINT_SQL[dialectOf(em)], [userId, userId, userId]);
  const figures: ChecksumFigures = { n: 0, m: 0, c: 0, a: 0, d: 0, kn: 0, ks: 0 };
  for (const name of CHECKSUM_FIGURES) figures[name] = Number(row?.[name] ?? 0);
  return checksumText(figures);
}

/**
 * The user's model learned from scratch, with the checksum of the rows it was learned from: one
 * scan of the rows (ids, not names: the few category names are read on their own).
 */
async function learnModel(em: EntityManager, userId: number): Promise<CachedModel> {
  const rows = await selectRows<{ id: number; description: string; amount: number; category_id: number }>(
    em,
    `select t.id as id, t.description as description, t.amount as amount, t.category_id as category_id from ${TRANSACTION_TABLE} t where ${LEARNED_ROWS}`,
    [userId],
  );
  const categories = await selectRows<{ id: number; name: string }>(em, CATEGORIES_SQL, [userId]);
  const names = new Map(categories.map((category) => [category.id, category.name]));
  const model = learn([]);
  const checksum = new RowChecksum();
  const row: LearnRow = { description: '', amount: 0, category: '' };
  let complete = true;
  for (const { id, description, amount, category_id: categoryId } of rows) {
    checksum.add(id, categoryId, amount, description);
    const category = names.get(categoryId);
    // Its category was deleted between the two reads: this model is not kept as current.
    if (category === undefined) {
      complete = false;
      continue;
    }
    row.description = description;
    row.amount = amount;
    row.category = category;
    addRow(model, row);
  }
  return { fingerprint: complete ? checksum.value(categories) : 'incomplete', model };
}

/** The user's model, rebuilt only when their categorised rows changed since it was built. */
export async function suggestionModel(em: EntityManager, userId: number): Promise<SuggestionModel> {
  return (await suggestionModelEntry(em, userId)).model;
}

/** The user's model with the fingerprint it is current at (see `suggestionModel`). */
export async function suggestionModelEntry(em: EntityManager, userId: number): Promise<CachedModel> {
  const cache = cacheOf(em);
  const cached = cache.get(userId);
  if (cached && cached.fingerprint === (await fingerprint(em, userId))) {
    cache.delete(userId);
    cache.set(userId, cached);
    return cached;
  }
  const entry = await learnModel(em, userId);
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
