import type { EntityManager } from '@mikro-orm/knex';
import { homeCurrencyOf } from '../users/home-currency.service';
import { ChangeRecorder } from '../history/recorder';
import { AppError } from '../../../shared/errors';
import {
  MAX_APPLY_CHANGES,
  MAX_RULES_PER_USER,
  RULE_ACTION_FIELDS,
  RuleSet,
  type ApplyRulesInput,
  type ApplyRulesResult,
  type CountRuleMatchesInput,
  type CreateRuleInput,
  type ReorderRulesInput,
  type RuleActions,
  type RuleChange,
  type RuleDto,
  type RuleMatchCount,
  type UpdateRuleInput,
} from '../../../shared/rules';
import { runStepsAsync } from '../../../shared/csv/steps';
import { countedRowSql, selectRows, sqlTx, TRANSACTION_TABLE } from '../../db/sql';
import { pause } from '../../common/pause';
import { withCheckpointAfter } from '../../db/wal-checkpoint';
import { ensureCategories } from '../categories/categories.service';
import { nameKey } from '../../../shared/names';
import { must } from '../../../shared/must';
import { User } from '../users/user.entity';
import { Rule } from './rule.entity';
import { Category } from '../categories/category.entity';

/** The order rules run in, and are listed in. */
const RULE_ORDER = { priority: 'asc', id: 'asc' } as const;

export function toRuleDto(rule: Rule): RuleDto {
  return {
    id: rule.id,
    name: rule.name,
    conditions: rule.conditions,
    actions: rule.actions,
    priority: rule.priority,
    enabled: rule.enabled,
  };
}

async function ownRule(em: EntityManager, userId: number, id: number): Promise<Rule> {
  const rule = await em.findOne(Rule, { id, user: userId });
  if (!rule) throw new AppError('NOT_FOUND', `Rule ${id} not found`);
  return rule;
}

export async function listRules(em: EntityManager, userId: number): Promise<RuleDto[]> {
  return (await em.find(Rule, { user: userId }, { orderBy: RULE_ORDER })).map(toRuleDto);
}

/** The user's enabled rules, compiled (for an import). */
export async function loadRuleSet(em: EntityManager, userId: number): Promise<RuleSet> {
  return RuleSet.compile(await listRules(em, userId), await homeCurrencyOf(em, userId));
}

/**
 * A category action names one of the user's categories, in its own spelling. A name no category has
 * is refused (a typo would otherwise become a category) unless `createCategory` asks for it.
 */
async function checkedActions(
  em: EntityManager,
  userId: number,
  actions: RuleActions,
  createCategory: boolean,
): Promise<RuleActions> {
  if (!actions.category) return actions;
  const existing = await em.findOne(Category, { user: userId, nameKey: nameKey(actions.category) });
  if (existing) return { ...actions, category: existing.name };
  if (!createCategory)
    throw new AppError(
      'UNPROCESSABLE',
      `There is no category '${actions.category.trim()}': pick an existing one, or send createCategory: true to create it`,
      { field: 'actions.category' },
    );
  await ensureCategories(em, userId, [actions.category]);
  return actions;
}

/** Two rules of a user may not share a name, whatever its case. */
async function refuseTakenName(em: EntityManager, userId: number, name: string, exceptId?: number): Promise<void> {
  const clash = await em.findOne(Rule, { user: userId, nameKey: nameKey(name) });
  if (clash && clash.id !== exceptId) throw new AppError('CONFLICT', `A rule named '${clash.name}' already exists`);
}

export async function createRule(em: EntityManager, userId: number, input: CreateRuleInput): Promise<RuleDto> {
  return em.transactional(async (tx) => {
    const count = await tx.count(Rule, { user: userId });
    if (count >= MAX_RULES_PER_USER)
      throw new AppError(
        'CONFLICT',
        `You have ${count} rules, the most one person can keep (${MAX_RULES_PER_USER}): delete one first`,
      );
    await refuseTakenName(tx, userId, input.name);
    const actions = await checkedActions(tx, userId, input.actions, input.createCategory);
    const rule = tx.create(Rule, {
      user: tx.getReference(User, userId),
      name: input.name,
      nameKey: nameKey(input.name),
      conditions: input.conditions,
      actions,
      priority: input.priority,
      enabled: input.enabled,
      createdAt: new Date().toISOString(),
    });
    await tx.flush();
    return toRuleDto(rule);
  });
}

export async function updateRule(
  em: EntityManager,
  userId: number,
  id: number,
  input: UpdateRuleInput,
): Promise<RuleDto> {
  return em.transactional(async (tx) => {
    const rule = await ownRule(tx, userId, id);
    if (input.name !== undefined) {
      await refuseTakenName(tx, userId, input.name, id);
      rule.name = input.name;
      rule.nameKey = nameKey(input.name);
    }
    if (input.conditions !== undefined) rule.conditions = input.conditions;
    if (input.actions !== undefined)
      rule.actions = await checkedActions(tx, userId, input.actions, input.createCategory);
    if (input.priority !== undefined) rule.priority = input.priority;
    if (input.enabled !== undefined) rule.enabled = input.enabled;
    await tx.flush();
    return toRuleDto(rule);
  });
}

export async function deleteRule(em: EntityManager, userId: number, id: number): Promise<{ message: string }> {
  const rule = await ownRule(em, userId, id);
  em.remove(rule);
  await em.flush();
  return { message: `Rule '${rule.name}' deleted` };
}

/**
 * Puts the rules in the order given (every rule of the user, once): priorities become
 * 10, 20, 30, ... in one transaction.
 */
export async function reorderRules(em: EntityManager, userId: number, input: ReorderRulesInput): Promise<RuleDto[]> {
  return em.transactional(async (tx) => {
    const rules = await tx.find(Rule, { user: userId });
    const byId = new Map(rules.map((rule) => [rule.id, rule]));
    const ordered = input.ids.map((id) => {
      const rule = byId.get(id);
      if (!rule) throw new AppError('NOT_FOUND', `Rule ${id} not found`);
      return rule;
    });
    if (new Set(input.ids).size !== input.ids.length || input.ids.length !== rules.length) {
      throw new AppError('BAD_REQUEST', `ids: must list each of your ${rules.length} rules once`);
    }
    ordered.forEach((rule, i) => {
      rule.priority = (i + 1) * 10;
    });
    await tx.flush();
    return listRules(tx, userId);
  });
}

interface CandidateRow {
  id: number;
  post_date: string;
  description: string;
  amount: number;
  type: string;
  account: string | null;
  /** The account's currency (the home currency for a row without an account). */
  currency: string;
  category_id: number | null;
  category: string | null;
}

/** Rows read at a time when rules run over stored transactions: each page is one short query. */
const CANDIDATE_PAGE = 2000;

/**
 * Transactions a rule may change: not a split parent, not a split part (their categories and
 * type belong to the split), optionally in a date range and only those without a category; newest
 * first, a page at a time (by the last page's date and id), with a turn of the event loop between
 * slices of work, so rules over a long history never hold the server.
 */
async function* candidatePages(
  em: EntityManager,
  userId: number,
  options: { startDate?: string; endDate?: string; onlyUncategorized?: boolean },
): AsyncGenerator<CandidateRow[]> {
  const clauses = ['t.user_id = ?', countedRowSql('t'), 't.parent_id is null'];
  const params: unknown[] = [userId];
  if (options.startDate) {
    clauses.push('t.post_date >= ?');
    params.push(options.startDate);
  }
  if (options.endDate) {
    clauses.push('t.post_date <= ?');
    params.push(options.endDate);
  }
  if (options.onlyUncategorized) clauses.push('t.category_id is null');
  const select = `select t.id, t.post_date, t.description, t.amount, t.type, a.name as account, coalesce(a.currency, u.home_currency) as currency, t.category_id, c.name as category
       from ${TRANSACTION_TABLE} t join "user" u on u.id = t.user_id left join account a on a.id = t.account_id left join category c on c.id = t.category_id
      where ${clauses.join(' and ')}`;
  let after: CandidateRow | null = null;
  for (;;) {
    const page: CandidateRow[] = await selectRows<CandidateRow>(
      em,
      `${select}${after ? ' and (t.post_date < ? or (t.post_date = ? and t.id < ?))' : ''} order by t.post_date desc, t.id desc limit ${CANDIDATE_PAGE}`,
      after ? [...params, after.post_date, after.post_date, after.id] : params,
    );
    if (page.length > 0) yield page;
    if (page.length < CANDIDATE_PAGE) return;
    after = must(page.at(-1), 'a full page has a last row');
    await pause();
  }
}

const SAMPLE_SIZE = 5;
/** Rows between two chances to pause while rules run over them (a row costs at most a few rules' matching). */
const ROWS_PER_STEP = 50;

/** How many of the user's transactions the conditions match ("matches N of your transactions"). */
export async function countRuleMatches(
  em: EntityManager,
  userId: number,
  input: CountRuleMatchesInput,
): Promise<RuleMatchCount> {
  const rules = RuleSet.compile(
    [{ id: 0, name: '', conditions: input.conditions, actions: { category: 'x' }, priority: 0, enabled: true }],
    await homeCurrencyOf(em, userId),
  );
  let matched = 0;
  let total = 0;
  const sample: RuleMatchCount['sample'] = [];
  for await (const page of candidatePages(em, userId, {})) {
    for (const row of page) {
      total += 1;
      if (total % ROWS_PER_STEP === 0) await pause();
      const ruleRow = {
        description: row.description,
        amount: row.amount,
        account: row.account,
        currency: row.currency,
      };
      if (!(await runStepsAsync(rules.matchesAnySteps(ruleRow), pause))) continue;
      matched += 1;
      if (sample.length < SAMPLE_SIZE)
        sample.push({ id: row.id, postDate: row.post_date, description: row.description, amount: row.amount });
    }
  }
  return { matched, total, sample };
}

/**
 * Runs rules over stored transactions (the enabled ones, or exactly `ruleIds`, enabled or not):
 * a dry run answers what would change; otherwise the changes are written in one transaction,
 * creating the categories the rules name. `changes` lists at most MAX_APPLY_CHANGES fields.
 */
export async function applyRulesToTransactions(
  em: EntityManager,
  userId: number,
  input: ApplyRulesInput,
): Promise<ApplyRulesResult> {
  // A dry run writes nothing: its pages are read one query at a time, other requests' between them.
  if (input.dryRun) return applyRulesIn(em, userId, input);
  // All or nothing in one transaction; on SQLite its commit leaves copying the log into the file to a worker thread.
  return withCheckpointAfter(em, () => em.transactional((tx) => applyRulesIn(tx, userId, input)));
}

/** One transaction's planned change: the fields a rule sets to something other than what the row holds. */
interface PlannedChange {
  row: CandidateRow;
  category?: string;
  type?: string;
  description?: string;
}

/** The user's rules as they run, or exactly `ruleIds` (enabled for this run, even if switched off). */
async function rulesToApply(tx: EntityManager, userId: number, ruleIds: readonly number[] | undefined) {
  const rules = await listRules(tx, userId);
  if (!ruleIds) return rules;
  const wanted = new Set(ruleIds);
  for (const id of wanted)
    if (!rules.some((rule) => rule.id === id)) throw new AppError('NOT_FOUND', `Rule ${id} not found`);
  return rules.filter((rule) => wanted.has(rule.id)).map((rule) => ({ ...rule, enabled: true }));
}

/** Writes the planned changes (creating the categories they name) as one entry of the history. */
async function writePlannedChanges(tx: EntityManager, userId: number, planned: readonly PlannedChange[]) {
  const categoryIds = await ensureCategories(
    tx,
    userId,
    planned.flatMap((p) => (p.category ? [p.category] : [])),
  );
  const recorder = new ChangeRecorder(tx, userId);
  await recorder.touch(
    'transaction',
    planned.map((p) => p.row.id),
  );
  const db = await sqlTx(tx);
  // A rename keeps the text it replaces as the bank's (once), for duplicate detection on re-import.
  // A category a rule set is the rule's (category_source 'rule'); a row whose category no rule set keeps its source.
  const update = `update ${TRANSACTION_TABLE} set category_id = ?, category_source = case when ? then ? else category_source end, type = ?, bank_description = case when ? then coalesce(bank_description, description) else bank_description end, description = ? where id = ? and user_id = ?`;
  for (const p of planned) {
    const categoryId = p.category !== undefined ? (categoryIds.get(nameKey(p.category)) ?? null) : p.row.category_id;
    await db.run(update, [
      categoryId,
      p.category !== undefined,
      categoryId === null ? null : 'rule',
      p.type ?? p.row.type,
      p.description !== undefined,
      p.description ?? p.row.description,
      p.row.id,
      userId,
    ]);
    await pause();
  }
  await recorder.finish(
    'rule-apply',
    `Applied rules to ${planned.length} transaction${planned.length === 1 ? '' : 's'}`,
  );
}

async function applyRulesIn(tx: EntityManager, userId: number, input: ApplyRulesInput): Promise<ApplyRulesResult> {
  const set = RuleSet.compile(await rulesToApply(tx, userId, input.ruleIds), await homeCurrencyOf(tx, userId));
  const planned: PlannedChange[] = [];
  const changes: RuleChange[] = [];
  let matched = 0;
  let changedRows = 0;
  let truncated = false;
  let seen = 0;
  const pages = set.size === 0 ? [] : candidatePages(tx, userId, input);
  for await (const page of pages)
    for (const row of page) {
      if (++seen % ROWS_PER_STEP === 0) await pause();
      const outcome = await runStepsAsync(
        set.applySteps({
          description: row.description,
          amount: row.amount,
          account: row.account,
          currency: row.currency,
        }),
        pause,
      );
      if (Object.keys(outcome.ruleIds).length === 0) continue;
      matched += 1;
      const change: (typeof planned)[number] = { row };
      for (const field of RULE_ACTION_FIELDS) {
        const to = outcome.actions[field];
        if (to === undefined) continue;
        const from = field === 'category' ? row.category : field === 'type' ? row.type : row.description;
        const same = field === 'category' ? from !== null && nameKey(from) === nameKey(to) : from === to;
        if (same) continue;
        change[field] = to;
        if (changes.length < MAX_APPLY_CHANGES)
          changes.push({
            id: row.id,
            postDate: row.post_date,
            description: row.description,
            amount: row.amount,
            field,
            from,
            to,
            ruleId: must(outcome.ruleIds[field], 'the rule that set a field is recorded'),
          });
        else truncated = true;
      }
      if (change.category !== undefined || change.type !== undefined || change.description !== undefined) {
        changedRows += 1;
        planned.push(change);
      }
    }
  if (!input.dryRun && planned.length > 0) await writePlannedChanges(tx, userId, planned);
  return { dryRun: input.dryRun, matched, changed: changedRows, changes, truncated };
}
