import { findSharedCategories } from '../../../shared/budget';
import { formatAmountInput } from '../../../shared/money';
import { must } from '../../../shared/must';
import { fieldDigits, readAmountField } from '../../lib/amountField';
import {
  LINE_ITEM_TYPES,
  type LineItemDto,
  type LineItemType,
  type SaveBudgetInput,
} from '../../../shared/schemas/budgets';

/**
 * The Create/Edit budget form as plain data, and its conversion into the one
 * `budgets.save` call (name and dates required, amounts read by the shared
 * amount parser into cents, related categories split on commas and trimmed, and each category
 * related to one line item only).
 */

export const DEFAULT_LINE_ITEM_TYPE: LineItemType = 'Variable';

export interface LineItemDraft {
  /** Stable React key for the row (saved or not). */
  key: string;
  /** The saved line item's id; absent for a new (or copied) one. */
  id?: number;
  name: string;
  /** The amount as typed ("12.5", "1.234,50"), read in the browser's locale. */
  amount: string;
  type: LineItemType;
  /** Comma-separated category names, as edited. */
  relatedCategories: string;
}

export interface BudgetDraft {
  name: string;
  startDate: string;
  endDate: string;
  lineItems: LineItemDraft[];
}

let nextKey = 0;
/** A fresh key for a line-item row. */
export function newDraftKey(): string {
  nextKey += 1;
  return `li-${nextKey}`;
}

export function emptyLineItem(): LineItemDraft {
  return { key: newDraftKey(), name: '', amount: '', type: DEFAULT_LINE_ITEM_TYPE, relatedCategories: '' };
}

/** A saved line item as a form row; `keepId` false copies it (Copy Budget: a new item). */
export function draftFromLineItem(
  item: Pick<LineItemDto, 'id' | 'name' | 'amount' | 'type' | 'relatedCategories'>,
  keepId: boolean,
  locale = 'en-US',
  /** The home currency budgets are planned in: its decimals (none for yen). */
  currency: string | null = null,
): LineItemDraft {
  return {
    key: newDraftKey(),
    ...(keepId ? { id: item.id } : {}),
    name: item.name,
    amount: formatAmountInput(item.amount, locale, fieldDigits(currency)),
    type: (LINE_ITEM_TYPES as readonly string[]).includes(item.type) ? item.type : DEFAULT_LINE_ITEM_TYPE,
    relatedCategories: item.relatedCategories.join(', '),
  };
}

/** "Groceries, , dining " -> ['Groceries', 'dining']. */
export function splitCategories(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Appends a category to the comma list unless it is already there (case-insensitive). */
export function appendCategory(text: string, name: string): string {
  const trimmed = name.trim();
  const current = splitCategories(text);
  if (!trimmed || current.some((existing) => existing.toLowerCase() === trimmed.toLowerCase()))
    return current.join(', ');
  return [...current, trimmed].join(', ');
}

/** True when the Save/Update button may be pressed: name, start and end date filled. */
export function canSubmit(draft: Pick<BudgetDraft, 'name' | 'startDate' | 'endDate'>): boolean {
  return draft.name.trim() !== '' && draft.startDate !== '' && draft.endDate !== '';
}

/** Form text of an amount field -> cents (the shared parser, in `locale`), or null when it is not an amount. */
export function amountToCents(text: string, locale = 'en-US', currency: string | null = null): number | null {
  const read = readAmountField(text, locale, { currency });
  return read.ok ? read.cents : null;
}

export interface LineItemErrors {
  name?: string;
  amount?: string;
  relatedCategories?: string;
}

export interface DraftErrors {
  name?: string;
  startDate?: string;
  endDate?: string;
  /** Per line-item key. */
  lineItems: Record<string, LineItemErrors>;
}

export type BuildResult = { ok: true; input: SaveBudgetInput } | { ok: false; errors: DraftErrors };

/**
 * Checks the form and builds the `budgets.save` input. `budgetId` is the edited
 * budget (absent when creating or copying); `deletedLineItemIds` are saved items removed
 * from the form that the save should delete.
 */
export function buildSaveInput(
  draft: BudgetDraft,
  budgetId?: number,
  deletedLineItemIds: readonly number[] = [],
  locale = 'en-US',
  currency: string | null = null,
): BuildResult {
  const errors: DraftErrors = { lineItems: {} };
  let failed = false;
  const name = draft.name.trim();
  if (!name) {
    errors.name = 'Budget name is required';
    failed = true;
  }
  if (!draft.startDate) {
    errors.startDate = 'Start date is required';
    failed = true;
  }
  if (!draft.endDate) {
    errors.endDate = 'End date is required';
    failed = true;
  }
  if (draft.startDate && draft.endDate && draft.startDate > draft.endDate) {
    errors.endDate = 'Start date must not be after end date';
    failed = true;
  }
  const lineItems: SaveBudgetInput['lineItems'] = [];
  const shared = sharedCategoryErrors(draft.lineItems);
  for (const item of draft.lineItems) {
    const itemErrors: LineItemErrors = {};
    const itemName = item.name.trim();
    const amount = readAmountField(item.amount, locale, { required: true, currency });
    if (!itemName) itemErrors.name = 'Line item name is required';
    if (!amount.ok) itemErrors.amount = amount.message;
    if (shared[item.key]) itemErrors.relatedCategories = shared[item.key];
    if (itemErrors.name || itemErrors.amount || itemErrors.relatedCategories || !amount.ok) {
      errors.lineItems[item.key] = itemErrors;
      failed = true;
      continue;
    }
    const cents = amount.cents;
    lineItems.push({
      ...(item.id !== undefined ? { id: item.id } : {}),
      name: itemName,
      amount: cents as number,
      type: item.type,
      relatedCategories: splitCategories(item.relatedCategories),
    });
  }
  if (failed) return { ok: false, errors };
  return {
    ok: true,
    input: {
      ...(budgetId !== undefined ? { id: budgetId } : {}),
      name,
      startDate: draft.startDate,
      endDate: draft.endDate,
      lineItems,
      deletedLineItemIds: [...deletedLineItemIds],
    },
  };
}

/** Line-item position in the form's words: "line item 2: Food" (or "line item 2" while unnamed). */
function itemTitle(index: number, name: string): string {
  return name.trim() ? `line item ${index + 1}: ${name.trim()}` : `line item ${index + 1}`;
}

/**
 * The Related Categories message of each line item that repeats a category an earlier one has:
 * "Groceries is already in line item 1: Food (a category can belong to one line item)".
 */
export function sharedCategoryErrors(items: readonly LineItemDraft[]): Record<string, string> {
  const out: Record<string, string[]> = {};
  const found = findSharedCategories(
    items.map((item) => ({ name: item.name, relatedCategories: splitCategories(item.relatedCategories) })),
  );
  for (const shared of found) {
    const { key } = must(items[shared.index], 'a shared category names one of the items');
    (out[key] ??= []).push(`${shared.category} is already in ${itemTitle(shared.firstIndex, shared.firstName)}`);
  }
  return Object.fromEntries(
    Object.entries(out).map(([key, list]) => [key, `${list.join('; ')} (a category can belong to one line item)`]),
  );
}

/** For each line item: the categories other line items already have (lower-case -> "line item 1: Food"). */
export function categoriesTakenByOthers(items: readonly LineItemDraft[]): Record<string, Map<string, string>> {
  const owners = new Map<string, { key: string; title: string }>();
  items.forEach((item, index) => {
    for (const name of splitCategories(item.relatedCategories)) {
      const lower = name.toLowerCase();
      if (!owners.has(lower)) owners.set(lower, { key: item.key, title: itemTitle(index, item.name) });
    }
  });
  const out: Record<string, Map<string, string>> = {};
  for (const item of items) {
    const taken = new Map<string, string>();
    for (const [lower, owner] of owners) if (owner.key !== item.key) taken.set(lower, owner.title);
    out[item.key] = taken;
  }
  return out;
}
