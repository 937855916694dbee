/**
 * Category suggestions learned from a user's own categorised rows. Pure: rows in, a model out;
 * a model and a row in, a suggestion out. No network, no external model.
 *
 * The model groups earlier rows by merchant key (normalize.ts) and by the amount's sign, and
 * keeps, per category, how many rows there were and the spread of their amounts (log scale).
 * A new row is matched on its merchant key; when no earlier row has that key, on the key that
 * shares the most (rarity-weighted) words with it. Among the categories of the matched rows,
 * each is weighted by how many rows it has and how close their amounts are to this one.
 *
 * Confidence = (share of the matched rows' weight on the winner) x n / (n + 1), times the word
 * similarity for a near match: one earlier row gives at most 0.5, nine unanimous rows 0.9, so
 * only a merchant seen consistently many times is applied without asking.
 */
import { merchantKey, normalizeMerchant, type MerchantKey, type MerchantWords } from './normalize';
import { must } from '../must';

export interface LearnRow {
  description: string;
  /** Integer cents; the sign matters (a refund is not a purchase). */
  amount: number;
  category: string;
}

export interface SuggestRow {
  description: string;
  amount: number;
}

export interface Suggestion {
  category: string | null;
  /** 0..1 */
  confidence: number;
  /** The evidence in words, e.g. "14 earlier 'GREEN BASKET' rows were Groceries". */
  reason: string;
}

/** Suggestions at or above this confidence are applied on import (when the account allows it). */
export const CONFIDENT = 0.9;

interface CategoryStats {
  count: number;
  logSum: number;
  logSquares: number;
}

type Sign = 'in' | 'out';

interface KeyStats {
  display: string;
  tokens: string[];
  rows: number;
  bySign: Record<Sign, Map<string, CategoryStats>>;
}

export interface SuggestionModel {
  keys: Map<string, KeyStats>;
  /** Key without spaces -> key ("GREENBASKET" finds "green basket"). */
  squashed: Map<string, string>;
  /** Token -> keys holding it. */
  tokenKeys: Map<string, string[]>;
  rows: number;
  /** Memo of near matches by merchant key (cleared when a row is added). */
  near: Map<string, { key: string; similarity: number } | null>;
  /** Memo of each key's total word weight (cleared when a row is added). */
  keyWeights: Map<string, number>;
}

function signOf(amount: number): Sign {
  return amount < 0 ? 'out' : 'in';
}

function logSize(amount: number): number {
  return Math.log10(Math.abs(amount) + 100);
}

/** A normaliser that remembers descriptions it has seen (the same ones recur every month). */
export function memoNormalizer(limit = 200_000): (description: string) => MerchantKey {
  const memo = new Map<string, MerchantKey>();
  return (description) => {
    let found = memo.get(description);
    if (!found) {
      found = normalizeMerchant(description);
      if (memo.size < limit) memo.set(description, found);
    }
    return found;
  };
}

/**
 * Builds a model from categorised rows (order does not matter). Each description is normalised
 * afresh: a history's descriptions are mostly distinct (store numbers, dates, references), so a
 * memo of them costs more (hashing and keeping every one) than the one-pass normaliser it saves.
 */
export function learn(
  rows: Iterable<LearnRow>,
  normalize: (description: string) => MerchantWords = merchantKey,
): SuggestionModel {
  const model: SuggestionModel = {
    keys: new Map(),
    squashed: new Map(),
    tokenKeys: new Map(),
    rows: 0,
    near: new Map(),
    keyWeights: new Map(),
  };
  for (const row of rows) addRow(model, row, normalize);
  return model;
}

/** Adds one categorised row to a model. */
export function addRow(
  model: SuggestionModel,
  row: LearnRow,
  normalize: (description: string) => MerchantWords = merchantKey,
): void {
  const merchant = normalize(row.description);
  if (!merchant.key) return;
  if (model.near.size > 0) model.near.clear();
  if (model.keyWeights.size > 0) model.keyWeights.clear();
  let stats = model.keys.get(merchant.key);
  if (!stats) {
    stats = {
      display: merchant.key.toUpperCase(),
      tokens: merchant.tokens,
      rows: 0,
      bySign: { in: new Map(), out: new Map() },
    };
    model.keys.set(merchant.key, stats);
    const squashed = merchant.tokens.join('');
    if (!model.squashed.has(squashed)) model.squashed.set(squashed, merchant.key);
    for (const token of new Set(merchant.tokens)) {
      const list = model.tokenKeys.get(token);
      if (list) list.push(merchant.key);
      else model.tokenKeys.set(token, [merchant.key]);
    }
  }
  stats.rows++;
  model.rows++;
  const byCategory = stats.bySign[signOf(row.amount)];
  const size = logSize(row.amount);
  const found = byCategory.get(row.category);
  if (found) {
    found.count++;
    found.logSum += size;
    found.logSquares += size * size;
  } else byCategory.set(row.category, { count: 1, logSum: size, logSquares: size * size });
}

const NONE: Suggestion = { category: null, confidence: 0, reason: 'No earlier transaction looks like this one' };

/** The weakest word similarity a near match may have. */
const MIN_SIMILARITY = 0.5;
/** Keys holding a word this common are not scanned for it (it names no merchant). */
const MAX_KEYS_PER_TOKEN = 500;

/** Suggests a category for one row. */
export function suggest(
  model: SuggestionModel,
  row: SuggestRow,
  normalize: (description: string) => MerchantKey = normalizeMerchant,
): Suggestion {
  const merchant = normalize(row.description);
  if (!merchant.key || model.rows === 0) return NONE;
  const squashedKey = model.keys.has(merchant.key) ? undefined : model.squashed.get(merchant.tokens.join(''));
  const exact = model.keys.get(squashedKey ?? merchant.key);
  if (exact) return fromKey(exact, row.amount, 1);
  let near = model.near.get(merchant.key);
  if (near === undefined) {
    near = nearestKey(model, merchant.tokens);
    if (model.near.size < 50_000) model.near.set(merchant.key, near);
  }
  if (!near) return NONE;
  return fromKey(must(model.keys.get(near.key), 'a near key is a key of the model'), row.amount, near.similarity);
}

function tokenWeight(model: SuggestionModel, token: string): number {
  const keys = model.tokenKeys.get(token)?.length ?? 0;
  // Rare words name merchants; a word never seen counts as rare (it may be a city or a typo).
  return Math.log(1 + model.keys.size / Math.max(keys, 1));
}

function nearestKey(model: SuggestionModel, tokens: readonly string[]): { key: string; similarity: number } | null {
  const unique = [...new Set(tokens)];
  const weights = new Map(unique.map((token) => [token, tokenWeight(model, token)]));
  const shared = new Map<string, number>();
  for (const [token, weight] of weights) {
    const keys = model.tokenKeys.get(token);
    if (!keys || keys.length > MAX_KEYS_PER_TOKEN) continue;
    for (const key of keys) shared.set(key, (shared.get(key) ?? 0) + weight);
  }
  let best: { key: string; similarity: number; rows: number } | null = null;
  const queryWeight = [...weights.values()].reduce((sum, w) => sum + w, 0);
  for (const [key, common] of shared) {
    const stats = must(model.keys.get(key), 'a key listed for a word is a key of the model');
    let keyWeight = model.keyWeights.get(key);
    if (keyWeight === undefined) {
      keyWeight = 0;
      for (const token of new Set(stats.tokens)) keyWeight += tokenWeight(model, token);
      model.keyWeights.set(key, keyWeight);
    }
    // Weighted Jaccard: shared weight over the weight of the union of both word sets.
    const similarity = common / (queryWeight + keyWeight - common);
    if (!best || similarity > best.similarity || (similarity === best.similarity && stats.rows > best.rows))
      best = { key, similarity, rows: stats.rows };
  }
  return best && best.similarity >= MIN_SIMILARITY ? { key: best.key, similarity: best.similarity } : null;
}

/** How well an amount fits a category's earlier amounts (1 = typical). */
function amountFit(stats: CategoryStats, size: number): number {
  if (stats.count < 2) return 0.7;
  const mean = stats.logSum / stats.count;
  const variance = Math.max(stats.logSquares / stats.count - mean * mean, 0);
  const spread = Math.max(Math.sqrt(variance), 0.2);
  const z = (size - mean) / spread;
  return Math.max(Math.exp(-0.5 * z * z), 0.02);
}

function rowsText(n: number): string {
  return n === 1 ? '1 earlier' : `${n} earlier`;
}

function fromKey(stats: KeyStats, amount: number, similarity: number): Suggestion {
  const sign = signOf(amount);
  let byCategory = stats.bySign[sign];
  let signFactor = 1;
  if (byCategory.size === 0) {
    // Only rows of the other sign (a refund from a shop bought from before): weaker evidence.
    byCategory = stats.bySign[sign === 'in' ? 'out' : 'in'];
    signFactor = 0.5;
  }
  const size = logSize(amount);
  let total = 0;
  let rows = 0;
  let best: { category: string; weight: number; count: number } | null = null;
  for (const [category, categoryStats] of byCategory) {
    const weight = categoryStats.count * amountFit(categoryStats, size);
    total += weight;
    rows += categoryStats.count;
    if (!best || weight > best.weight || (weight === best.weight && category < best.category))
      best = { category, weight, count: categoryStats.count };
  }
  if (!best || total === 0) return NONE;
  const share = best.weight / total;
  const confidence = Math.min(1, share * (rows / (rows + 1)) * signFactor * (similarity < 1 ? similarity * 0.95 : 1));
  const name = `'${stats.display}'`;
  const money = signFactor < 1 ? (sign === 'in' ? ' (money out)' : ' (money in)') : '';
  const evidence =
    best.count === rows
      ? `${rowsText(rows)} ${name} row${rows === 1 ? '' : 's'}${money} ${rows === 1 ? 'was' : 'were'} ${best.category}`
      : `${best.count} of ${rows} earlier ${name} rows${money} were ${best.category}${share > best.count / rows + 0.05 ? ', amounts like this one' : ''}`;
  return {
    category: best.category,
    confidence: Math.round(confidence * 1000) / 1000,
    reason: similarity < 1 ? `Looks like ${name}: ${evidence}` : evidence,
  };
}

/** Suggestions for many rows at once, in order. */
export function suggestAll(model: SuggestionModel, rows: readonly SuggestRow[]): Suggestion[] {
  const normalize = memoNormalizer(rows.length + 1);
  return rows.map((row) => suggest(model, row, normalize));
}
