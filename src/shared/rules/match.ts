/**
 * Running rules over rows: pure, data in and data out. Rules are compiled once (values folded,
 * regexes built, sorted by priority then id, disabled ones dropped), then each row is folded
 * once and checked against them, cheapest conditions first. For each action field the first
 * matching rule wins; conditions look at the row as it came in (a rename does not feed later rules).
 */
import { foldText } from '../text/fold';
import {
  RULE_ACTION_FIELDS,
  type DescriptionCondition,
  type RuleActionField,
  type RuleActions,
  type RuleCondition,
  type RuleDto,
} from './schema';
import { RULE_REGEX_FLAGS } from './safe-regex';

export interface RuleRow {
  description: string;
  /** Integer cents, negative is money out. */
  amount: number;
  /** Account name, or null. */
  account: string | null;
}

export interface RuleOutcome {
  /** The actions taken, one value per field. */
  actions: RuleActions;
  /** The rule that set each field. */
  ruleIds: Partial<Record<RuleActionField, number>>;
}

type Test = (row: RuleRow, folded: string) => boolean;

interface CompiledRule {
  id: number;
  name: string;
  actions: RuleActions;
  fields: RuleActionField[];
  /** The fields as bits (FIELD_BITS). */
  mask: number;
  /**
   * The hash of three characters its description must contain (from a contains, startsWith or
   * equals value), or -1 when it has none: a row without them cannot match, unchecked.
   */
  gram: number;
  account: string | null;
  /** Amount and text tests, cheapest first. */
  tests: Test[];
}

const FIELD_BITS: Record<RuleActionField, number> = { category: 1, type: 2, description: 4 };
const GRAM_BUCKETS = 1 << 16;

/** A hash of the three characters of `text` at `i` (collisions only let a rule be checked for nothing). */
function gramAt(text: string, i: number): number {
  return (text.charCodeAt(i) * 961 + text.charCodeAt(i + 1) * 31 + text.charCodeAt(i + 2)) & (GRAM_BUCKETS - 1);
}

/** A three-character piece of the longest literal the rule's description must contain, hashed. */
function requiredGram(conditions: readonly RuleCondition[]): number {
  let literal = '';
  for (const c of conditions) {
    if (c.field === 'description' && c.op !== 'matches') {
      const folded = foldText(c.value);
      if (folded.length > literal.length) literal = folded;
    }
  }
  return literal.length >= 3 ? gramAt(literal, Math.floor((literal.length - 3) / 2)) : -1;
}

/** Conditions ordered by cost: amount and account before text, regular expressions last. */
const COST: Record<Exclude<RuleCondition['field'], 'description'> | DescriptionCondition['op'], number> = {
  amount: 0,
  account: 1,
  equals: 2,
  startsWith: 3,
  contains: 4,
  matches: 5,
};
const costOf = (c: RuleCondition) => (c.field === 'description' ? COST[c.op] : COST[c.field]);

function compileCondition(condition: RuleCondition): Test {
  switch (condition.field) {
    case 'amount': {
      if (condition.op === 'between') {
        const [low, high] = condition.value;
        return (row) => row.amount >= low && row.amount <= high;
      }
      const value = condition.value;
      if (condition.op === 'eq') return (row) => row.amount === value;
      if (condition.op === 'lt') return (row) => row.amount < value;
      return (row) => row.amount > value;
    }
    case 'account': {
      const value = foldText(condition.value.trim());
      return (row) => row.account !== null && foldText(row.account.trim()) === value;
    }
    case 'description': {
      const value = foldText(condition.value);
      switch (condition.op) {
        case 'contains':
          return (_row, folded) => folded.includes(value);
        case 'startsWith':
          return (_row, folded) => folded.startsWith(value);
        case 'equals':
          return (_row, folded) => folded === value;
        case 'matches': {
          const regex = new RegExp(condition.value, RULE_REGEX_FLAGS);
          return (_row, folded) => regex.test(folded);
        }
      }
    }
  }
}

export class RuleSet {
  /** The action fields any rule sets: a row is done once all of them are set. */
  private readonly allFields: number;
  /** Rule indexes by the hash of a three-character piece they need; null when no rule has one. */
  private readonly buckets: Map<number, number[]> | null;
  /** Per rule, the row (generation) whose description holds its piece. */
  private readonly seen: Uint32Array;
  private generation = 0;

  private constructor(private readonly rules: readonly CompiledRule[]) {
    this.allFields = rules.reduce((bits, rule) => bits | rule.mask, 0);
    this.seen = new Uint32Array(rules.length);
    const buckets = new Map<number, number[]>();
    rules.forEach((rule, index) => {
      if (rule.gram < 0) return;
      const bucket = buckets.get(rule.gram);
      if (bucket) bucket.push(index);
      else buckets.set(rule.gram, [index]);
    });
    this.buckets = buckets.size > 0 ? buckets : null;
  }

  /** Enabled rules, by priority then id. */
  static compile(rules: readonly RuleDto[]): RuleSet {
    const compiled = rules
      .filter((rule) => rule.enabled)
      .sort((a, b) => a.priority - b.priority || a.id - b.id)
      .map((rule): CompiledRule => {
        const conditions = [...rule.conditions].sort((a, b) => costOf(a) - costOf(b));
        const account = conditions.find((c) => c.field === 'account');
        const fields = RULE_ACTION_FIELDS.filter((field) => rule.actions[field] !== undefined);
        return {
          id: rule.id,
          name: rule.name,
          actions: rule.actions,
          fields,
          mask: fields.reduce((bits, field) => bits | FIELD_BITS[field], 0),
          gram: requiredGram(conditions),
          account: account ? foldText(account.value.trim()) : null,
          tests: conditions.map(compileCondition),
        };
      });
    return new RuleSet(compiled);
  }

  get size(): number {
    return this.rules.length;
  }

  /** The rule's name by id (for previews). */
  nameOf(id: number): string | undefined {
    return this.rules.find((rule) => rule.id === id)?.name;
  }

  /**
   * The rules for rows that all belong to one account (an import): rules naming another account
   * are dropped and account conditions are known to hold, so each row checks less.
   */
  forAccount(account: string | null): RuleSet {
    const key = account === null ? null : foldText(account.trim());
    const kept = this.rules.filter((rule) => rule.account === null || rule.account === key);
    return new RuleSet(kept);
  }

  /** True when every condition of the rule with this index holds for the row. */
  private matches(rule: CompiledRule, row: RuleRow, folded: string): boolean {
    for (const test of rule.tests) if (!test(row, folded)) return false;
    return true;
  }

  /** Marks the rules whose three-character piece the folded description holds (this row's generation). */
  private markCandidates(buckets: ReadonlyMap<number, readonly number[]>, folded: string): number {
    const generation = (this.generation = (this.generation + 1) >>> 0 || 1);
    for (let i = 0; i + 3 <= folded.length; i += 1) {
      const bucket = buckets.get(gramAt(folded, i));
      if (bucket) for (const index of bucket) this.seen[index] = generation;
    }
    return generation;
  }

  apply(row: RuleRow): RuleOutcome {
    const outcome: RuleOutcome = { actions: {}, ruleIds: {} };
    if (this.rules.length === 0) return outcome;
    const folded = foldText(row.description);
    const generation = this.buckets ? this.markCandidates(this.buckets, folded) : 0;
    let done = 0;
    let index = -1;
    for (const rule of this.rules) {
      index += 1;
      if ((rule.mask & ~done) === 0) continue;
      if (rule.gram >= 0 && this.seen[index] !== generation) continue;
      if (!this.matches(rule, row, folded)) continue;
      for (const field of rule.fields) {
        if (done & FIELD_BITS[field]) continue;
        (outcome.actions as Record<string, unknown>)[field] = rule.actions[field];
        outcome.ruleIds[field] = rule.id;
      }
      done |= rule.mask;
      if (done === this.allFields) break;
    }
    return outcome;
  }

  /** True when every condition of some enabled rule holds (which rules: `apply`). */
  matchesAny(row: RuleRow): boolean {
    const folded = foldText(row.description);
    return this.rules.some((rule) => this.matches(rule, row, folded));
  }
}

/** Runs the rules over one row: the actions taken and, per field, the rule that set it. */
export function applyRules(rules: readonly RuleDto[], row: RuleRow): RuleOutcome {
  return RuleSet.compile(rules).apply(row);
}

/** True when all the conditions hold for the row (the "matches N" count of a rule being edited). */
export function conditionsMatch(conditions: readonly RuleCondition[], row: RuleRow): boolean {
  return RuleSet.compile([{ id: 0, name: '', conditions: [...conditions], actions: { category: 'x' }, priority: 0, enabled: true }]).matchesAny(row);
}
