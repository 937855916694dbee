import type { EntityManager } from '@mikro-orm/knex';
import type { SuggestInput, SuggestionDto } from '../../../shared/schemas/suggest';
import {
  addRow,
  learn,
  memoNormalizer,
  suggest,
  type LearnRow,
  type SuggestionModel,
  type SuggestRow,
} from '../../../shared/suggest';
import {
  countedRowSql,
  firstCodePointSql,
  selectAggregateRow,
  selectJsonColumns,
  selectRows,
  TRANSACTION_TABLE,
  type JsonColumn,
} from '../../db/sql';
import { pause } from '../../common/pause';

/**
 * What the learner learns from: the user's categorised counted rows (split parts included,
 * split parents not), except rows whose category was itself suggested and not yet reviewed
 * (learning from them would only repeat the learner's own guesses).
 */
const LEARNED_KINDS = `t.category_id is not null and ${countedRowSql('t')} and (t.category_source is null or t.category_source <> 'suggested')`;
const LEARNED_ROWS = `t.user_id = ? and ${LEARNED_KINDS}`;
/**
 * A page of the learned rows after an id, in id order. `+t.user_id` keeps SQLite from reading by the user's
 * index (then sorting all their rows for every page): it walks the table by id from the last page's end.
 */
const LEARNED_PAGE = (size: number) =>
  `(select t.description, t.amount, t.category_id, t.id from ${TRANSACTION_TABLE} t where t.id > ? and +t.user_id = ? and ${LEARNED_KINDS} order by t.id limit ${size}) t`;

/**
 * A checksum of everything the model depends on (rows added, removed, recategorised, re-described,
 * re-amounted; categories added), as a select list of aggregates over the learned rows (`t`). When
 * it is unchanged, the cached model is still right; any write through any path (API, import,
 * restore, rules) changes it. Learning reads it in the same statement as the rows it learns from,
 * so the two always agree.
 *
 * Integer arithmetic only, each term under 2^31 (PostgreSQL int) and each sum exact in a double.
 * Categories and amounts count through two moduli each: a change goes unseen only when it moves
 * the value by a multiple of both (over 600 million). Descriptions count by their length and
 * first character, and any edit of one is counted by a database trigger in the user's
 * `description_edits` (migration 20261127053000), so an edit that keeps both is seen too.
 */
function checksumSql(em: EntityManager): string {
  const firstCodePoint = firstCodePointSql(em, 't.description');
  return `count(*) as n, coalesce(max(t.id), 0) as m, coalesce(sum((t.id % 9973 + 1) * (t.category_id % 65521) + t.category_id % 9967), 0) as c,
    coalesce(sum((t.id % 7919 + 1) * (t.amount % 65521) + t.amount % 9973), 0) as a,
    coalesce(sum((t.id % 7907 + 1) * length(t.description) + ${firstCodePoint}), 0) as d,
    (select count(*) from category where user_id = ?) as kn, (select coalesce(sum(id), 0) from category where user_id = ?) as ks,
    (select description_edits from "user" where id = ?) as e`;
}
const LEARNED_FROM = `${TRANSACTION_TABLE} t where ${LEARNED_ROWS}`;
/** What learning reads to name the categories of the rows it learns from. */
const CATEGORIES_SQL = 'select id, name from category where user_id = ?';

const CHECKSUM_FIGURES = ['n', 'm', 'c', 'a', 'd', 'kn', 'ks', 'e'] as const;
type ChecksumRow = Record<(typeof CHECKSUM_FIGURES)[number], number | string | null>;

function checksumText(row: ChecksumRow | undefined): string {
  return CHECKSUM_FIGURES.map((name) => Number(row?.[name] ?? 0)).join(':');
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

/** The checksum (see checksumSql); a scan of every learned row, so read on a reader thread where one serves. */
async function fingerprint(em: EntityManager, userId: number): Promise<string> {
  const row = await selectAggregateRow(em, CHECKSUM_FIGURES, `select ${checksumSql(em)} from ${LEARNED_FROM}`, [
    userId,
    userId,
    userId,
    userId,
  ]);
  return checksumText(row as ChecksumRow | undefined);
}

/** The columns learning reads of each learned row. */
const LEARNED_COLUMNS: readonly JsonColumn[] = [
  { sql: 't.description', type: 'text' },
  { sql: 't.amount', type: 'integer' },
  { sql: 't.category_id', type: 'integer' },
];

/** Learned rows read at a time: each page is one short statement, so a long history never holds the server. */
const LEARN_PAGE = 5000;
/** Rows learned between two chances to pause (see common/pause.ts). */
const ROWS_PER_STEP = 256;

/**
 * The user's model learned from scratch, with the checksum of the rows it was learned from. The checksum is
 * read first, then the rows a page at a time by id (as columns, ids not names: the few category names are read
 * on their own), pausing between slices: a write between the checksum and the last page may be learned while
 * the checksum misses it, which only makes the next call learn again.
 */
async function learnModel(em: EntityManager, userId: number): Promise<CachedModel> {
  const checksum = await fingerprint(em, userId);
  const categories = await selectRows<{ id: number; name: string }>(em, CATEGORIES_SQL, [userId]);
  const names = new Map(categories.map((category) => [category.id, category.name]));
  const model = learn([]);
  const row: LearnRow = { description: '', amount: 0, category: '' };
  let complete = true;
  let afterId = 0;
  for (;;) {
    const page = await selectJsonColumns<{ m: number | null }>(
      em,
      LEARNED_COLUMNS,
      LEARNED_PAGE(LEARN_PAGE),
      'max(t.id) as m',
      [afterId, userId],
    );
    const [descriptions, amounts, categoryIds] = page.columns as [string[], number[], number[]];
    for (let i = 0; i < descriptions.length; i++) {
      if (i % ROWS_PER_STEP === 0) await pause();
      const category = names.get(categoryIds[i] ?? 0);
      // Its category was created after the names were read, or deleted: this model is not kept as current.
      if (category === undefined) {
        complete = false;
        continue;
      }
      row.description = descriptions[i] ?? '';
      row.amount = amounts[i] ?? 0;
      row.category = category;
      addRow(model, row);
    }
    if (descriptions.length < LEARN_PAGE) break;
    afterId = Number(page.aggregates.m);
    await pause();
  }
  return { fingerprint: complete ? checksum : 'incomplete', model };
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
  const entry = await learnOnce(em, userId);
  cache.delete(userId);
  cache.set(userId, entry);
  // Oldest first (a Map keeps insertion order, and a user's entry was just moved to the end).
  for (const oldest of cache.keys()) {
    if (cache.size <= CACHED_USERS) break;
    cache.delete(oldest);
  }
  return entry;
}

/** Learning under way, per app and user: calls that find the model stale meanwhile wait for it instead of learning again. */
const learning = new WeakMap<object, Map<number, Promise<CachedModel>>>();

function learnOnce(em: EntityManager, userId: number): Promise<CachedModel> {
  let running = learning.get(em.config);
  if (!running) {
    running = new Map<number, Promise<CachedModel>>();
    learning.set(em.config, running);
  }
  const under = running.get(userId);
  if (under) return under;
  const started = learnModel(em, userId).finally(() => running.delete(userId));
  running.set(userId, started);
  return started;
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
export async function learnBatchAfterCommit(
  em: EntityManager,
  userId: number,
  entry: CachedModel,
  batchId: string,
): Promise<() => Promise<void>> {
  const rows = await selectRows<LearnRow>(
    em,
    `select t.description as description, t.amount as amount, c.name as category
       from ${TRANSACTION_TABLE} t join category c on c.id = t.category_id where t.batch_id = ? and ${LEARNED_ROWS}`,
    [batchId, userId],
  );
  const after = await fingerprint(em, userId);
  return async () => {
    const cache = cacheOf(em);
    if (cache.get(userId) !== entry) return;
    const normalize = memoNormalizer();
    for (const [i, row] of rows.entries()) {
      if (i % ROWS_PER_STEP === 0) await pause();
      addRow(entry.model, row, normalize);
    }
    entry.fingerprint = after;
  };
}

/** Suggestions for rows, in order, from the user's own history only. */
export function suggestWith(model: SuggestionModel, rows: readonly SuggestRow[]): SuggestionDto[] {
  const normalize = memoNormalizer(rows.length + 1);
  return rows.map((row) => suggest(model, row, normalize));
}

export async function suggestCategories(
  em: EntityManager,
  userId: number,
  input: SuggestInput,
): Promise<SuggestionDto[]> {
  if (input.transactions.length === 0) return [];
  return suggestWith(await suggestionModel(em, userId), input.transactions);
}
