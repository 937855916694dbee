/**
 * Running rules over rows: pure, data in and data out. Rules are compiled once (values folded,
 * regexes built, sorted by priority then id, disabled ones dropped), then each row is folded
 * once and checked against them, cheapest conditions first. For each action field the first
 * matching rule wins; conditions look at the row as it came in (a rename does not feed later rules).
 */
import { runSteps, type Steps } from '../csv/steps';
import { must } from '../must';
import { foldText } from '../text/fold';
import {
  RULE_ACTION_FIELDS,
  type DescriptionCondition,
  type RuleActionField,
  type RuleActions,
  type RuleCondition,
  type RuleDto,
} from './schema';
import { storedRulePattern } from './pattern';

export interface RuleRow {
  description: string;
  /** Integer cents, negative is money out. */
  amount: number;
  /** Account name, or null. */
  account: string | null;
  /**
   * The account's currency: an amount condition holds only in its own. Left out where every row
   * is known to be in the rules' currency (an import, after forAccount).
   */
  currency?: string;
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
  /** The currencies its amount conditions are in. */
  currencies: string[];
  /** Amount and text tests, cheapest first. */
  tests: Test[];
  /** It has a regular expression: checking it may take time in proportion to the pattern and the text. */
  costly: boolean;
}

const FIELD_BITS: Record<RuleActionField, number> = { category: 1, type: 2, description: 4 };
const GRAM_BUCKETS = 1 << 16;
/** What `apply` answers for a row no rule changes (frozen: shared by many rows). */
const NO_OUTCOME: RuleOutcome = Object.freeze({ actions: Object.freeze({}), ruleIds: Object.freeze({}) });

/** A hash of the three characters of `text` at `i` (collisions only let a rule be checked for nothing). */
function gramAt(text: string, i: number): number {
  return (text.charCodeAt(i) * 961 + text.charCodeAt(i + 1) * 31 + text.charCodeAt(i + 2)) & (GRAM_BUCKETS - 1);
}

/**
 * The longest run of plain characters (ASCII letters, digits, spaces) any match of a regular
 * expression must contain, lower-cased, or ''. Conservative: only runs at the top level of a
 * pattern without alternation count; a character made optional by `?`, `*` or `{` is left out.
 */
export function regexLiteral(pattern: string): string {
  let depth = 0;
  let inClass = false;
  let run = '';
  let best = '';
  const end = (optionalLast: boolean) => {
    const kept = optionalLast ? run.slice(0, -1) : run;
    if (kept.length > best.length) best = kept;
    run = '';
  };
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern.charAt(i);
    if (ch === '\\') {
      end(false);
      i += 1;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '|' && depth === 0) return '';
    if (depth === 0 && /[A-Za-z0-9 ]/.test(ch)) {
      run += ch;
      continue;
    }
    end(ch === '?' || ch === '*' || ch === '{');
    if (ch === '[') inClass = true;
    else if (ch === '(') depth += 1;
    else if (ch === ')') depth = Math.max(0, depth - 1);
  }
  end(false);
  return best.toLowerCase();
}

/** A three-character piece of the longest literal the rule's description must contain, hashed. */
function requiredGram(conditions: readonly RuleCondition[]): number {
  let literal = '';
  for (const c of conditions) {
    if (c.field !== 'description') continue;
    const required = c.op === 'matches' ? regexLiteral(c.value) : foldText(c.value);
    if (required.length > literal.length) literal = required;
  }
  // The last three characters: numbered names ("ref12", "store 7") differ there most.
  return literal.length >= 3 ? gramAt(literal, literal.length - 3) : -1;
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

function compileCondition(condition: RuleCondition, home: string | undefined): Test {
  switch (condition.field) {
    case 'amount': {
      const currency = condition.currency ?? home;
      const inCurrency =
        currency === undefined ? () => true : (row: RuleRow) => row.currency === undefined || row.currency === currency;
      if (condition.op === 'between') {
        const [low, high] = condition.value;
        return (row) => row.amount >= low && row.amount <= high && inCurrency(row);
      }
      const value = condition.value;
      if (condition.op === 'eq') return (row) => row.amount === value && inCurrency(row);
      if (condition.op === 'lt') return (row) => row.amount < value && inCurrency(row);
      return (row) => row.amount > value && inCurrency(row);
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
          const pattern = storedRulePattern(condition.value);
          return (_row, folded) => pattern.test(folded);
        }
      }
    }
  }
}

export class RuleSet {
  /** The action fields any rule sets: a row is done once all of them are set. */
  private readonly allFields: number;
  /**
   * Rule indexes by the hash of a three-character piece they need, as one typed array:
   * the rules of piece g are `pieceRules[pieceStart[g]]` to `pieceRules[pieceStart[g + 1] - 1]`,
   * ascending. Null when no rule has a piece. Typed arrays: a row looks up every piece of its
   * description (most slots empty), and in a holey array those lookups were most of an import's
   * rules step.
   */
  private readonly pieceStart: Uint32Array | null;
  private readonly pieceRules: Uint32Array;
  /** Per rule, the row (generation) whose description holds its piece. */
  private readonly seen: Uint32Array;
  private generation = 0;
  /** Indexes of the rules without a piece (checked on every row), ascending. */
  private readonly unfiltered: Uint32Array;
  /** This row's rules with their piece present, ascending, the first `markedCount` of them (reused between rows). */
  private readonly marked: Uint32Array;
  private markedCount = 0;

  private constructor(private readonly rules: readonly CompiledRule[]) {
    this.allFields = rules.reduce((bits, rule) => bits | rule.mask, 0);
    this.seen = new Uint32Array(rules.length);
    this.marked = new Uint32Array(rules.length);
    const withPiece = rules.filter((rule) => rule.gram >= 0).length;
    if (withPiece === 0) {
      this.pieceStart = null;
      this.pieceRules = new Uint32Array(0);
      this.unfiltered = Uint32Array.from(rules.keys());
      return;
    }
    // Counting sort by piece: counts, then starts, then each rule in its slot (in rule order).
    const start = new Uint32Array(GRAM_BUCKETS + 1);
    for (const rule of rules) if (rule.gram >= 0) start[rule.gram + 1] = (start[rule.gram + 1] ?? 0) + 1;
    for (let g = 0; g < GRAM_BUCKETS; g += 1) start[g + 1] = (start[g + 1] ?? 0) + (start[g] ?? 0);
    const fill = start.slice(0, GRAM_BUCKETS);
    this.pieceRules = new Uint32Array(withPiece);
    const unfiltered: number[] = [];
    for (const [index, rule] of rules.entries()) {
      if (rule.gram < 0) {
        unfiltered.push(index);
        continue;
      }
      const at = fill[rule.gram] ?? 0;
      this.pieceRules[at] = index;
      fill[rule.gram] = at + 1;
    }
    this.pieceStart = start;
    this.unfiltered = Uint32Array.from(unfiltered);
  }

  /**
   * Enabled rules, by priority then id. `home`: the currency of amount conditions that name none
   * (without it, such conditions compare any row's amount).
   */
  static compile(rules: readonly RuleDto[], home?: string): RuleSet {
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
          currencies: conditions.flatMap((c) => (c.field === 'amount' ? [c.currency ?? home ?? ''] : [])),
          tests: conditions.map((c) => compileCondition(c, home)),
          costly: conditions.some((c) => c.field === 'description' && c.op === 'matches'),
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
   * The rules for rows that all belong to one account (an import): rules naming another account,
   * or an amount in another currency, are dropped, so the rows need not say their currency.
   */
  forAccount(account: string | null, currency: string): RuleSet {
    const key = account === null ? null : foldText(account.trim());
    const kept = this.rules.filter(
      (rule) =>
        (rule.account === null || rule.account === key) &&
        rule.currencies.every((code) => code === '' || code === currency),
    );
    return new RuleSet(kept);
  }

  /** True when every condition of the rule with this index holds for the row. */
  private matches(rule: CompiledRule, row: RuleRow, folded: string): boolean {
    for (const test of rule.tests) if (!test(row, folded)) return false;
    return true;
  }

  /** The rules whose three-character piece the folded description holds: `marked`, ascending, `markedCount` of them. */
  private markCandidates(pieceStart: Uint32Array, folded: string): void {
    const generation = (this.generation = (this.generation + 1) >>> 0 || 1);
    const { marked, seen, pieceRules } = this;
    let count = 0;
    // gramAt at each position, rolled: one new character per step.
    let a = folded.charCodeAt(0);
    let b = folded.charCodeAt(1);
    for (let i = 2; i < folded.length; i += 1) {
      const c = folded.charCodeAt(i);
      const gram = (a * 961 + b * 31 + c) & (GRAM_BUCKETS - 1);
      a = b;
      b = c;
      const end = pieceStart[gram + 1] ?? 0;
      for (let at = pieceStart[gram] ?? 0; at < end; at += 1) {
        const index = pieceRules[at] ?? 0;
        if (seen[index] === generation) continue;
        seen[index] = generation;
        // Insertion keeps them ascending (a row marks a handful of rules).
        let j = count;
        while (j > 0 && (marked[j - 1] ?? 0) > index) {
          marked[j] = marked[j - 1] ?? 0;
          j -= 1;
        }
        marked[j] = index;
        count += 1;
      }
    }
    this.markedCount = count;
  }

  /**
   * Only the rules that can match are visited: those without a piece, and those whose piece the
   * row holds, merged in rule order (a row checks a handful of 200 rules, not all of them).
   * A row no rule changes gets NO_OUTCOME (shared, frozen): most rows of an import match none.
   */
  apply(row: RuleRow): RuleOutcome {
    return runSteps(this.applySteps(row));
  }

  /**
   * `apply` in steps: a step ends after each rule with a regular expression is checked (linear in the text, yet a
   * thousand of them over one long description add up), so a server can pause between steps.
   */
  *applySteps(row: RuleRow): Steps<RuleOutcome> {
    if (this.rules.length === 0) return NO_OUTCOME;
    const folded = foldText(row.description);
    if (this.pieceStart) this.markCandidates(this.pieceStart, folded);
    else this.markedCount = 0;
    const { marked, unfiltered, markedCount } = this;
    let outcome: RuleOutcome | null = null;
    let done = 0;
    let m = 0;
    let u = 0;
    for (;;) {
      // The two lists hold different rules, each ascending: take the lower next index.
      let index: number;
      if (m < markedCount && (u >= unfiltered.length || (marked[m] ?? 0) < (unfiltered[u] ?? 0))) {
        index = marked[m] ?? 0;
        m += 1;
      } else if (u < unfiltered.length) {
        index = unfiltered[u] ?? 0;
        u += 1;
      } else break;
      const rule = must(this.rules[index], 'a candidate index names a rule');
      if ((rule.mask & ~done) === 0) continue;
      const matched = this.matches(rule, row, folded);
      if (rule.costly) yield;
      if (!matched) continue;
      outcome ??= { actions: {}, ruleIds: {} };
      for (const field of rule.fields) {
        if (done & FIELD_BITS[field]) continue;
        (outcome.actions as Record<string, unknown>)[field] = rule.actions[field];
        outcome.ruleIds[field] = rule.id;
      }
      done |= rule.mask;
      if (done === this.allFields) break;
    }
    return outcome ?? NO_OUTCOME;
  }

  /** True when every condition of some enabled rule holds (which rules: `apply`). */
  matchesAny(row: RuleRow): boolean {
    return runSteps(this.matchesAnySteps(row));
  }

  /** `matchesAny` in steps, as `applySteps`. */
  *matchesAnySteps(row: RuleRow): Steps<boolean> {
    const folded = foldText(row.description);
    for (const rule of this.rules) {
      const matched = this.matches(rule, row, folded);
      if (rule.costly) yield;
      if (matched) return true;
    }
    return false;
  }
}

/** Runs the rules over one row: the actions taken and, per field, the rule that set it. */
export function applyRules(rules: readonly RuleDto[], row: RuleRow): RuleOutcome {
  return RuleSet.compile(rules).apply(row);
}

/** True when all the conditions hold for the row (the "matches N" count of a rule being edited). */
export function conditionsMatch(conditions: readonly RuleCondition[], row: RuleRow): boolean {
  return RuleSet.compile([
    { id: 0, name: '', conditions: [...conditions], actions: { category: 'x' }, priority: 0, enabled: true },
  ]).matchesAny(row);
}
