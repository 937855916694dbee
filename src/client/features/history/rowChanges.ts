import { formatMoney } from '../../../shared/money';

type Image = Record<string, unknown> | null;

/** The user's accounts and categories by id, so a row's ids read as names and its amount in its account's currency. */
export interface HistoryNames {
  account: (id: number) => { name: string; currency: string } | undefined;
  category: (id: number) => string | undefined;
}

const NO_NAMES: HistoryNames = { account: () => undefined, category: () => undefined };

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
  status: 'Status',
};

/** A column's value in words; `image` is the row it is from (an amount is in its account's currency). */
function shown(column: string, value: unknown, image: Image, names: HistoryNames): string {
  if (value === null || value === undefined) return '—';
  if (column === 'amount' && typeof value === 'number') {
    const account = typeof image?.account_id === 'number' ? names.account(image.account_id) : undefined;
    return formatMoney(value, { currency: account?.currency });
  }
  if (column === 'account_id' && typeof value === 'number') return names.account(value)?.name ?? `account ${value}`;
  if (column === 'category_id' && typeof value === 'number') return names.category(value) ?? `category ${value}`;
  if (column === 'is_split') return value === true || value === 1 ? 'yes' : 'no';
  return typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** What a history row changed, in a line: "Created", "Deleted", or "Description: Cafe → Coffee shop". */
export function describeRowChange(before: Image, after: Image, names: HistoryNames = NO_NAMES): string {
  if (!before) return `Created ${headline(after, names)}`;
  if (!after) return `Deleted ${headline(before, names)}`;
  const changes = Object.keys(LABELS)
    .filter((column) => column in before && JSON.stringify(before[column]) !== JSON.stringify(after[column]))
    .map(
      (column) =>
        `${LABELS[column]}: ${shown(column, before[column], before, names)} → ${shown(column, after[column], after, names)}`,
    );
  return changes.length > 0 ? changes.join('; ') : 'Changed';
}

/** "2025-01-03 Grocer −€42.10" for a transaction, the name of anything else. */
function headline(image: Image, names: HistoryNames): string {
  if (!image) return '';
  const show = (column: string) => shown(column, image[column], image, names);
  if ('post_date' in image) return `${show('post_date')} ${show('description')} ${show('amount')}`;
  if ('scheduled_date' in image) return `occurrence of ${show('scheduled_date')} (${show('status')})`;
  if ('first_id' in image)
    return `offer of transactions ${show('first_id')} and ${show('second_id')} (${show('status')})`;
  return shown('name', image.name ?? image.id, image, names);
}
