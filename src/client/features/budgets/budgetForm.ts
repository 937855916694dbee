import { centsFromNumber, centsToDecimalString } from '../../../shared/money';
import { LINE_ITEM_TYPES, type LineItemDto, type LineItemType, type SaveBudgetInput } from '../../../shared/schemas/budgets';

/**
 * The Create/Edit budget form as plain data, and its conversion into the one
 * `budgets.save` call (SPEC section 5: name and dates required, amounts sent as
 * round(100 x value) cents, related categories split on commas and trimmed).
 */

export const DEFAULT_LINE_ITEM_TYPE: LineItemType = 'Variable';

export interface LineItemDraft {
  /** Stable React key for the row (saved or not). */
  key: string;
  /** The saved line item's id; absent for a new (or copied) one. */
  id?: number;
  name: string;
  /** The amount as typed in the number field ("12.5"). */
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
export function draftFromLineItem(item: Pick<LineItemDto, 'id' | 'name' | 'amount' | 'type' | 'relatedCategories'>, keepId: boolean): LineItemDraft {
  return {
    key: newDraftKey(),
    ...(keepId ? { id: item.id } : {}),
    name: item.name,
    amount: centsToDecimalString(item.amount),
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
  if (!trimmed || current.some((existing) => existing.toLowerCase() === trimmed.toLowerCase())) return current.join(', ');
  return [...current, trimmed].join(', ');
}

/** True when the Save/Update button may be pressed: name, start and end date filled. */
export function canSubmit(draft: Pick<BudgetDraft, 'name' | 'startDate' | 'endDate'>): boolean {
  return draft.name.trim() !== '' && draft.startDate !== '' && draft.endDate !== '';
}

/** Form text of a number field -> cents (round(100 x value)), or null when it is not a usable amount. */
export function amountToCents(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  if (!Number.isFinite(value)) return null;
  try {
    return centsFromNumber(value);
  } catch {
    return null;
  }
}

export interface DraftErrors {
  name?: string;
  startDate?: string;
  endDate?: string;
  /** Per line-item key. */
  lineItems: Record<string, { name?: string; amount?: string }>;
}

export type BuildResult = { ok: true; input: SaveBudgetInput } | { ok: false; errors: DraftErrors };

/**
 * Checks the form and builds the `budgets.save` input. `budgetId` is the edited
 * budget (absent when creating or copying); `deletedLineItemIds` are saved items removed
 * from the form that the save should delete.
 */
export function buildSaveInput(draft: BudgetDraft, budgetId?: number, deletedLineItemIds: readonly number[] = []): BuildResult {
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
  for (const item of draft.lineItems) {
    const itemErrors: { name?: string; amount?: string } = {};
    const itemName = item.name.trim();
    const cents = amountToCents(item.amount);
    if (!itemName) itemErrors.name = 'Line item name is required';
    if (cents === null) itemErrors.amount = item.amount.trim() === '' ? 'Amount is required' : 'Enter an amount such as 250.00';
    if (itemErrors.name || itemErrors.amount) {
      errors.lineItems[item.key] = itemErrors;
      failed = true;
      continue;
    }
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
