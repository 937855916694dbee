import { memo, type KeyboardEvent } from 'react';
import { UNCATEGORIZED_LABEL } from '../../../shared/categories';
import { formatCents } from '../../../shared/money';
import { TRANSACTION_TYPES, type TransactionDto, type TransactionType } from '../../../shared/schemas/transactions';
import type { SuggestionDto } from '../../../shared/schemas/suggest';
import { Amount } from './Amount';
import { CategorySourceMark } from './CategorySourceMark';
import { SuggestionChip } from './SuggestionChip';
import { withCurrent } from './hooks';
import { ROW_CLASS } from './rowStyles';
import { nextControlIndex } from './tableState';
import { ROW_PRIMARY } from './useRowFocus';

export const ROW_HEIGHT = 53;
const ROW_CONTROL = 'data-row-control';

interface TransactionRowProps {
  tx: TransactionDto;
  /** 1-based position among all rows (header is row 1), for aria-rowindex. */
  rowIndex: number;
  selected: boolean;
  categoryNames: readonly string[];
  /** The learned suggestion for an uncategorised row, shown as a one-click chip. */
  suggestion?: SuggestionDto;
  onToggle: (id: number) => void;
  onCategoryChange: (tx: TransactionDto, category: string | null) => void;
  onTypeChange: (tx: TransactionDto, type: TransactionType) => void;
}

/** Names a row in its controls' labels: 'Coffee -4.50 on 2024-01-05' (parts say so). */
export function rowLabel(tx: TransactionDto): string {
  return `${tx.description} ${formatCents(tx.amount)} on ${tx.postDate}${tx.parentTransactionId !== null ? ' (split part)' : ''}`;
}

/**
 * A row is one Tab stop (its checkbox); the arrow keys ← and → move between its checkbox,
 * category and type, so tabbing through a long list costs one stop a row. The arrows never
 * change a select's value here.
 */
function moveWithinRow(event: KeyboardEvent<HTMLTableRowElement>) {
  const target = event.target as HTMLElement;
  if (!target.hasAttribute(ROW_CONTROL)) return;
  const controls = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(`[${ROW_CONTROL}]`));
  const next = nextControlIndex(controls.indexOf(target), controls.length, event.key);
  if (next === null) return;
  event.preventDefault();
  controls[next]?.focus();
}

const inner = { [ROW_CONTROL]: '', tabIndex: -1 } as const;
const c = ROW_CLASS;

/**
 * One row of the transaction table; category and type are edited in place. Plain elements styled by
 * the table's one style sheet (rowStyles.tsx): rows enter the virtual window every frame while scrolling.
 */
export const TransactionRow = memo(function TransactionRow({
  tx,
  rowIndex,
  selected,
  categoryNames,
  suggestion,
  onToggle,
  onCategoryChange,
  onTypeChange,
}: TransactionRowProps) {
  const accept = (category: string) => onCategoryChange(tx, category);
  const label = rowLabel(tx);
  const options = withCurrent(categoryNames, tx.category);
  return (
    <tr className={c.row} aria-rowindex={rowIndex} aria-selected={selected} data-row-id={tx.id} onKeyDown={moveWithinRow}>
      <td className={`${c.cell} ${c.checkCell}`}>
        <input
          type="checkbox"
          className={c.check}
          checked={selected}
          onChange={() => onToggle(tx.id)}
          aria-label={`Select transaction ${label}`}
          {...{ [ROW_CONTROL]: '', [ROW_PRIMARY]: '' }}
        />
      </td>
      <td className={`${c.cell} ${c.date}`}>{tx.postDate}</td>
      <td className={c.cell}>
        <div className={c.line}>
          <span className={c.text} title={tx.description}>
            {tx.description}
          </span>
          {tx.isSplit && <span className={`${c.chip} ${c.chipPrimary}`}>Split</span>}
          {tx.parentTransactionId !== null && <span className={c.chip}>Split part</span>}
        </div>
      </td>
      <td className={`${c.cell} ${c.right}`}>
        <Amount cents={tx.amount} />
      </td>
      <td className={c.cell}>
        <div className={c.line} style={{ gap: 4 }}>
          <select
            className={c.select}
            value={tx.category ?? ''}
            onChange={(e) => onCategoryChange(tx, e.target.value === '' ? null : e.target.value)}
            aria-label={`Category for ${label}`}
            {...inner}
          >
            <option value="">{UNCATEGORIZED_LABEL}</option>
            {options.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <CategorySourceMark source={tx.categorySource} category={tx.category} rowLabel={label} onAccept={accept} />
          {tx.category === null && suggestion && <SuggestionChip suggestion={suggestion} rowLabel={label} onAccept={accept} />}
        </div>
      </td>
      <td className={c.cell}>
        <select
          className={c.select}
          value={tx.type}
          onChange={(e) => onTypeChange(tx, e.target.value as TransactionType)}
          aria-label={`Type for ${label}`}
          {...inner}
        >
          {TRANSACTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </td>
      <td className={`${c.cell} ${c.nowrap}`} title={tx.account ?? undefined}>
        {tx.account ?? ''}
      </td>
    </tr>
  );
});
