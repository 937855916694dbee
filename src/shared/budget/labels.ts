import type { LineItemType } from '../schemas/budgets';
import type { OverviewGroupType } from './overview';

/** How a screen names each line item type: the stored value is one word, a person reads "Not counted". */
const TYPE_LABELS: Record<OverviewGroupType, string> = {
  Income: 'Income',
  Variable: 'Variable',
  Fixed: 'Fixed',
  NotCounted: 'Not counted',
  Untracked: 'Untracked',
};

export function lineItemTypeLabel(type: LineItemType | OverviewGroupType): string {
  return TYPE_LABELS[type];
}
