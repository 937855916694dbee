import { useNavigate } from '@tanstack/react-router';
import { memo, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { UNCATEGORIZED_LABEL } from '../../../shared/categories';
import { formatCents, formatMoney, minorUnitsOf } from '../../../shared/money';
import { TRANSACTION_TYPES, type TransactionDto, type TransactionType } from '../../../shared/schemas/transactions';
import type { SuggestionDto } from '../../../shared/schemas/suggest';
import { Amount, OriginalAmount } from './Amount';
import { DraftSelect } from './DraftSelect';
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
  /** A split's part shown beneath its original: indented. */
  nested?: boolean;
  /** A split original: how many of its parts the list holds (they follow it unless folded). */
  parts?: number;
  /** A split original's parts are shown. */
  expanded?: boolean;
  onToggleParts?: (id: number) => void;
  onToggle: (id: number) => void;
  onCategoryChange: (tx: TransactionDto, category: string | null) => void;
  onTypeChange: (tx: TransactionDto, type: TransactionType) => void;
  /**
   * The list is scrolling: a row that mounts now gives its selects only their current option (see
   * TransactionRow), and the full lists once the scrolling stops or a select is focused or hovered.
   */
  scrolling?: boolean;
}

/** Names a row in its controls' labels: 'Coffee -4.50 on 2024-01-05', 'Sushi -1,500 on ...' for yen (parts say so). */
export function rowLabel(
  tx: TransactionDto,
  amountText = formatCents(tx.amount, { digits: tx.currency ? minorUnitsOf(tx.currency) : 2 }),
): string {
  return `${tx.description} ${amountText} on ${tx.postDate}${tx.parentTransactionId !== null ? ' (split part)' : ''}`;
}

/** The chip of a transfer's side: which account the money went to or came from. */
export function transferChipText(tx: Pick<TransactionDto, 'amount' | 'transferCounterpartAccount'>): string {
  return `Transfer ${tx.amount < 0 ? 'to' : 'from'} ${tx.transferCounterpartAccount ?? ''}`;
}

/**
 * A row is one Tab stop (its checkbox); the arrow keys ← and → move between its checkbox,
 * category and type, so tabbing through a long list costs one stop a row. ↑ and ↓ choose within a
 * select without saving (DraftSelect): Enter or leaving it saves.
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
  nested = false,
  parts,
  expanded = true,
  onToggleParts,
  onToggle,
  onCategoryChange,
  onTypeChange,
  scrolling = false,
}: TransactionRowProps) {
  const [full, setFull] = useState(!scrolling);
  // Adjusting state while rendering (React's pattern for state derived from props): settled for good.
  if (!full && !scrolling) setFull(true);
  const complete = full ? undefined : () => setFull(true);
  const amountText = formatMoney(tx.amount, { currency: tx.currency });
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
      <DescriptionCell tx={tx} nested={nested} />
      <td className={`${c.cell} ${c.right}`}>
        <Amount cents={tx.amount} text={amountText} />
        <OriginalAmount tx={tx} />
      </td>
      <td className={c.cell}>
        {tx.isSplit ? (
          <SplitPartsToggle tx={tx} label={label} parts={parts ?? 0} expanded={expanded} onToggle={onToggleParts} />
        ) : (
          <CategoryControls
            tx={tx}
            label={label}
            options={options}
            full={full}
            suggestion={suggestion}
            complete={complete}
            onCategoryChange={onCategoryChange}
          />
        )}
      </td>
      <td className={c.cell}>
        <TypeSelect tx={tx} label={label} full={full} complete={complete} onTypeChange={onTypeChange} />
      </td>
      <td className={`${c.cell} ${c.nowrap}`} title={tx.account ?? undefined}>
        <AccountLink tx={tx} />
      </td>
    </tr>
  );
});

/** The description cell: the text (cut to one line, whole in its title) and the split and transfer chips. */
function DescriptionCell({ tx, nested }: { tx: TransactionDto; nested: boolean }) {
  return (
    <td className={nested ? `${c.cell} ${c.nested}` : c.cell}>
      <div className={c.line}>
        <span className={c.text} title={tx.description}>
          {tx.description}
        </span>
        {tx.isSplit && <span className={`${c.chip} ${c.chipPrimary}`}>Split</span>}
        {tx.parentTransactionId !== null && <span className={c.chip}>Split part</span>}
        {tx.transferCounterpartAccount !== null && <span className={c.chip}>{transferChipText(tx)}</span>}
      </div>
    </td>
  );
}

interface TypeSelectProps {
  tx: TransactionDto;
  label: string;
  /** Every type as an option; else the current one alone (see TransactionRow). */
  full: boolean;
  complete?: () => void;
  onTypeChange: (tx: TransactionDto, type: TransactionType) => void;
}

/** The row's type, edited in place. */
function TypeSelect({ tx, label, full, complete, onTypeChange }: TypeSelectProps) {
  return (
    <DraftSelect
      className={c.select}
      value={tx.type}
      onCommit={(value) => onTypeChange(tx, value as TransactionType)}
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
    </DraftSelect>
  );
}

/**
 * The row's account, linking to its register: a plain anchor that navigates in the app (a router link per row
 * would follow the router's state in every visible row), one of the row's arrow-key controls.
 */
function AccountLink({ tx }: { tx: TransactionDto }) {
  const navigate = useNavigate();
  if (tx.account === null || tx.bank_account_id === null) return null;
  const id = String(tx.bank_account_id);
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate({ to: '/accounts/$id', params: { id } });
  };
  return (
    <a className={c.link} href={`/accounts/${id}`} onClick={open} aria-label={`${tx.account} register`} {...inner}>
      {tx.account}
    </a>
  );
}

/**
 * A split original has no category of its own (its parts carry them): its category cell says how many parts
 * it has and shows or hides them.
 */
function SplitPartsToggle(props: {
  tx: TransactionDto;
  label: string;
  parts: number;
  expanded: boolean;
  onToggle?: (id: number) => void;
}) {
  const { tx, label, parts, expanded, onToggle } = props;
  const text = `Split into ${parts} part${parts === 1 ? '' : 's'}`;
  if (parts === 0 || !onToggle) return <span className={c.muted}>Split (parts not in this list)</span>;
  return (
    <button
      type="button"
      className={c.toggle}
      aria-expanded={expanded}
      aria-label={`${text}: ${expanded ? 'hide' : 'show'} the parts of ${label}`}
      onClick={() => onToggle(tx.id)}
      {...inner}
    >
      <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> {text}
    </button>
  );
}

interface CategoryControlsProps {
  tx: TransactionDto;
  label: string;
  options: readonly string[];
  full: boolean;
  suggestion?: SuggestionDto;
  complete?: () => void;
  onCategoryChange: (tx: TransactionDto, category: string | null) => void;
}

/** The category select of a row (not a split original), its source mark and a suggestion's chip. */
function CategoryControls({ tx, label, options, full, suggestion, complete, onCategoryChange }: CategoryControlsProps) {
  const accept = (category: string) => onCategoryChange(tx, category);
  return (
    <div className={`${c.line} ${c.lineTight}`}>
      <DraftSelect
        className={c.select}
        value={tx.category ?? ''}
        onCommit={(value) => onCategoryChange(tx, value === '' ? null : value)}
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
      </DraftSelect>
      <CategorySourceMark source={tx.categorySource} category={tx.category} rowLabel={label} onAccept={accept} />
      {tx.category === null && suggestion && (
        <SuggestionChip suggestion={suggestion} rowLabel={label} onAccept={accept} />
      )}
    </div>
  );
}
