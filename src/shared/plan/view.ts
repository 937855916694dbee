/**
 * What the Plan screen shows of a month's plan, computed from the server's answer: categories grouped
 * under their envelopes, each target's progress, and the answer as it will be once an assigned amount
 * changes (shown at once, before the server confirms it). Pure, so the screen does no maths of its own.
 */
import type { PlanCategoryDto, PlanDto } from '../schemas/plan';
import { neededFor } from './engine';
import { addMonths, isMonth } from './months';

/** The group of categories held by no envelope. */
export const OTHER_GROUP = 'Other';

export interface PlanGroup {
  name: string;
  categories: PlanCategoryDto[];
}

/** Categories under their envelope, envelopes by name and "Other" (no envelope) last; the answer's order within each. */
export function planGroups(categories: readonly PlanCategoryDto[]): PlanGroup[] {
  const byEnvelope = new Map<string, PlanCategoryDto[]>();
  const other: PlanCategoryDto[] = [];
  for (const row of categories) {
    if (row.envelope === null) {
      other.push(row);
      continue;
    }
    const list = byEnvelope.get(row.envelope);
    if (list) list.push(row);
    else byEnvelope.set(row.envelope, [row]);
  }
  const groups = [...byEnvelope]
    .sort(([a], [b]) => a.localeCompare(b, undefined, { sensitivity: 'base' }))
    .map(([name, list]) => ({ name, categories: list }));
  return other.length > 0 ? [...groups, { name: OTHER_GROUP, categories: other }] : groups;
}

export type AvailableTone = 'positive' | 'zero' | 'overspent';

export function availableTone(available: number): AvailableTone {
  if (available < 0) return 'overspent';
  return available === 0 ? 'zero' : 'positive';
}

export interface TargetProgress {
  /** 0..100: how far the figure the target watches has come. */
  percent: number;
  /** What the target still needs this month (0 when met). */
  needed: number;
  underfunded: boolean;
}

/**
 * A target's progress: a monthly target watches this month's assigned amount, "refill up to" and
 * "by a date" watch what is available. Null without a target.
 */
export function targetProgress(row: PlanCategoryDto): TargetProgress | null {
  const target = row.target;
  if (!target || target.amount <= 0) return null;
  const funded = target.type === 'monthly' ? row.assigned : row.available;
  const percent = Math.max(0, Math.min(100, Math.floor((funded * 100) / target.amount)));
  return { percent, needed: row.needed, underfunded: row.needed > 0 };
}

/**
 * The month's answer once `category`'s assigned amount is `amount`: the category's assigned,
 * available and need, the month's totals and To Assign move by the difference. Later months are
 * not in this answer (the server's next answer brings them).
 */
export function withAssigned(plan: PlanDto, category: number, amount: number): PlanDto {
  const row = plan.categories.find((c) => c.category === category);
  if (!row) return plan;
  const change = amount - row.assigned;
  if (change === 0) return plan;
  const categories = plan.categories.map((c) => {
    if (c.category !== category) return c;
    const next = { ...c, assigned: amount, available: c.available + change };
    return { ...next, needed: neededFor(c.target, { ...next, categoryId: c.category }, plan.month) };
  });
  const toAssign = plan.toAssign - change;
  return {
    ...plan,
    categories,
    assigned: plan.assigned + change,
    available: plan.available + change,
    toAssign,
    holdable: Math.max(0, toAssign + plan.held),
  };
}

/** The month before and after (for the month switcher). */
export function neighbourMonths(month: string): { previous: string; next: string } {
  return { previous: addMonths(month, -1), next: addMonths(month, 1) };
}

/** "November 2026" in the locale, for a valid `YYYY-MM`; the text itself otherwise. */
export function monthTitle(month: string, locale?: string): string {
  if (!isMonth(month)) return month;
  const date = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1));
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}
