import { formatMoney } from '../../../shared/money';

type Image = Record<string, unknown> | null;

/** Columns a person recognises, in the words the screens use; other columns are bookkeeping. */
const LABELS: Record<string, string> = {
  post_date: 'Date',
  description: 'Description',
  amount: 'Amount',
  category_id: 'Category',
  type: 'Type',
  account_id: 'Account',
  is_split: 'Split',
  split_note: 'Split note',
  name: 'Name',
  transfer_id: 'Transfer',
};

function shown(column: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (column === 'amount' && typeof value === 'number') return formatMoney(value);
  if (column === 'is_split') return value === true || value === 1 ? 'yes' : 'no';
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** What a history row changed, in a line: "Created", "Deleted", or "Description: Cafe → Coffee shop". */
export function describeRowChange(before: Image, after: Image): string {
  if (!before) return `Created ${headline(after)}`;
  if (!after) return `Deleted ${headline(before)}`;
  const changes = Object.keys(LABELS)
    .filter((column) => column in before && JSON.stringify(before[column]) !== JSON.stringify(after[column]))
    .map((column) => `${LABELS[column]}: ${shown(column, before[column])} → ${shown(column, after[column])}`);
  return changes.length > 0 ? changes.join('; ') : 'Changed';
}

/** "2025-01-03 Grocer −42.10" for a transaction, the name of anything else. */
function headline(image: Image): string {
  if (!image) return '';
  if ('post_date' in image)
    return `${shown('post_date', image.post_date)} ${shown('description', image.description)} ${shown('amount', image.amount)}`;
  return shown('name', image.name ?? image.id);
}
