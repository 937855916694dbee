import { memo, useState, type KeyboardEvent } from 'react';
import { UNCATEGORIZED_LABEL } from '../../../shared/categories';
import { formatCents, formatMoney } from '../../../shared/money';
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
  /**
   * The list is scrolling: a row that mounts now gives its selects only their current option (see
   * TransactionRow), and the full lists once the scrolling stops or a select is focused or hovered.
   */
  scrolling?: boolean;
}

/** Names a row in its controls' labels: 'Coffee -4.50 on 2024-01-05' (parts say so). */
export function rowLabel(tx: TransactionDto, amountText = formatCents(tx.amount)): string {
  return `${tx.description} ${amountText} on ${tx.postDate}${tx.parentTransactionId !== null ? ' (split part)' : ''}`;
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
 *
 * A row mounted while the list scrolls renders each select with its current option alone (same
 * control, label, value and look), so a fast scroll does not build, style and throw away every option
 * of every row each frame (most of the elements it would style). The row gets its full
 * option lists, for good, when the scrolling stops or when a select is focused or the pointer enters it
 * (before it can be opened).
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
  scrolling = false,
}: TransactionRowProps) {
  const [full, setFull] = useState(!scrolling);
  // Adjusting state while rendering (React's pattern for state derived from props): settled for good.
  if (!full && !scrolling) setFull(true);
  const complete = full ? undefined : () => setFull(true);
  const accept = (category: string) => onCategoryChange(tx, category);
  const amountText = formatMoney(tx.amount);
  const label = rowLabel(tx);
  // Settled: every category (and the current one if it is not among them); else the current one alone.
  const options = full ? withCurrent(categoryNames, tx.category) : tx.category === null ? [] : [tx.category];
  return (
    <tr
      className={c.row}
      aria-rowindex={rowIndex}
      aria-selected={selected}
      data-row-id={tx.id}
      onKeyDown={moveWithinRow}
    >
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
        <Amount cents={tx.amount} text={amountText} />
      </td>
      <td className={c.cell}>
        <div className={`${c.line} ${c.lineTight}`}>
          <select
            className={c.select}
            value={tx.category ?? ''}
            onChange={(e) => onCategoryChange(tx, e.target.value === '' ? null : e.target.value)}
            aria-label={`Category for ${label}`}
            onFocus={complete}
            onPointerEnter={complete}
            {...inner}
          >
            {(full || tx.category === null) && <option value="">{UNCATEGORIZED_LABEL}</option>}
            {options.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <CategorySourceMark source={tx.categorySource} category={tx.category} rowLabel={label} onAccept={accept} />
          {tx.category === null && suggestion && (
            <SuggestionChip suggestion={suggestion} rowLabel={label} onAccept={accept} />
          )}
        </div>
      </td>
      <td className={c.cell}>
        <select
          className={c.select}
          value={tx.type}
          onChange={(e) => onTypeChange(tx, e.target.value as TransactionType)}
          aria-label={`Type for ${label}`}
          onFocus={complete}
          onPointerEnter={complete}
          {...inner}
        >
          {(full ? TRANSACTION_TYPES : [tx.type]).map((type) => (
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
