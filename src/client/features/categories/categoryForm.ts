import type { CategoryDto, CategoryKind, TargetType, UpdateCategoryInput } from '../../../shared/schemas/categories';
import { formatAmountInput } from '../../../shared/money';
import { fieldDigits, readAmountField } from '../../lib/amountField';

/** What the category dialog edits, as the fields hold it (amounts as typed). */
export interface CategoryDraft {
  name: string;
  kind: CategoryKind;
  hidden: boolean;
  rolls: boolean;
  /** The month rolling starts from when it is switched on now. */
  rollsFrom: string;
  targetType: TargetType | 'none';
  targetAmount: string;
  targetDate: string;
}

/** Targets are planned in the home currency (`currency`): typed and shown in its decimals. */
export function toCategoryDraft(
  category: CategoryDto,
  thisMonth: string,
  locale: string,
  currency: string | null = null,
): CategoryDraft {
  const target = category.target;
  return {
    name: category.name,
    kind: category.kind,
    hidden: category.hidden,
    rolls: category.rollsOverspendingFrom !== null,
    rollsFrom: category.rollsOverspendingFrom ?? thisMonth,
    targetType: target?.type ?? 'none',
    targetAmount: target ? formatAmountInput(target.amount, locale, fieldDigits(currency)) : '',
    targetDate: target?.type === 'byDate' ? target.date : '',
  };
}

export type DraftReading = { ok: true; input: UpdateCategoryInput } | { ok: false; field: string; message: string };

/** The update the draft asks for, or the field that is wrong and why. */
export function readCategoryDraft(draft: CategoryDraft, locale: string, currency: string | null = null): DraftReading {
  const name = draft.name.trim();
  if (!name) return { ok: false, field: 'name', message: 'Category name is required' };
  const input: UpdateCategoryInput = {
    name,
    kind: draft.kind,
    hidden: draft.hidden,
    rollsOverspendingFrom: draft.rolls ? draft.rollsFrom : null,
    target: null,
  };
  if (draft.targetType === 'none') return { ok: true, input };
  const amount = readAmountField(draft.targetAmount, locale, { required: true, unsigned: true, currency });
  if (!amount.ok) return { ok: false, field: 'targetAmount', message: amount.message };
  if (!amount.cents) return { ok: false, field: 'targetAmount', message: 'Enter a target of more than zero' };
  if (draft.targetType !== 'byDate')
    return { ok: true, input: { ...input, target: { type: draft.targetType, amount: amount.cents } } };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.targetDate))
    return { ok: false, field: 'targetDate', message: 'Enter the date to reach the target by' };
  return { ok: true, input: { ...input, target: { type: 'byDate', amount: amount.cents, date: draft.targetDate } } };
}
