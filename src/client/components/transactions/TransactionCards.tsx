import {
  Box,
  Button,
  ButtonBase,
  Checkbox,
  Chip,
  FormControlLabel,
  LinearProgress,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { alpha } from '@mui/material/styles';
import { memo, useEffect, useRef } from 'react';
import { UNCATEGORIZED_LABEL } from '../../../shared/categories';
import { TextLink } from '../RouterLinks';
import { must } from '../../../shared/must';
import type { SuggestionDto } from '../../../shared/schemas/suggest';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { Amount, OriginalAmount } from './Amount';
import { CategorySourceMark } from './CategorySourceMark';
import { SuggestionChip } from './SuggestionChip';
import type { TransactionViewProps } from './TransactionGrid';
import { rowLabel, transferChipText } from './TransactionRow';
import type { SortDirection, SortKey, SortState } from './sort';
import { ROW_PRIMARY, useRowFocus } from './useRowFocus';

const SORT_LABELS: Record<SortKey, string> = {
  postDate: 'Date',
  description: 'Description',
  amount: 'Amount',
  category: 'Category',
  type: 'Type',
  account: 'Account',
};

const DIRECTION_LABELS: Record<SortDirection, string> = { asc: 'Ascending', desc: 'Descending' };

interface CardProps {
  tx: TransactionDto;
  selected: boolean;
  /** The learned suggestion for an uncategorised row, shown as a one-click chip beside the card. */
  suggestion?: SuggestionDto;
  /** A split's part shown beneath its original: indented. */
  nested: boolean;
  /** A split original's parts and whether they are shown (absent for other rows). */
  split?: { parts: number; expanded: boolean; onToggle: (id: number) => void };
  onToggle: (id: number) => void;
  onEdit: (tx: TransactionDto) => void;
  onCategoryChange: (tx: TransactionDto, category: string | null) => void;
}

/**
 * One transaction as a compact card: date, description, amount, category; tap to edit. Two Tab stops, and a
 * third where a suggestion waits: the chip of a suggestion below the threshold, or the marker that accepts one.
 */
const TransactionCard = memo(function TransactionCard({
  tx,
  selected,
  suggestion,
  nested,
  split,
  onToggle,
  onEdit,
  onCategoryChange,
}: CardProps) {
  const label = rowLabel(tx);
  const accept = (category: string) => onCategoryChange(tx, category);
  const chip = tx.category === null && suggestion?.category ? suggestion : null;
  // A split original has no category of its own: its parts carry them.
  const category = tx.isSplit ? null : (tx.category ?? UNCATEGORIZED_LABEL);
  const details = [tx.postDate, category, tx.type].filter(Boolean).join(' · ');
  return (
    <Paper
      variant="outlined"
      data-row-id={tx.id}
      sx={[
        { display: 'flex', alignItems: 'flex-start', flexWrap: 'wrap', ml: nested ? 3 : 0 },
        selected && ((theme) => ({ bgcolor: alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity) })),
      ]}
    >
      <Checkbox
        checked={selected}
        onChange={() => onToggle(tx.id)}
        sx={{ mt: 0.25 }}
        slotProps={{ input: { 'aria-label': `Select transaction ${label}`, [ROW_PRIMARY]: '' } as object }}
      />
      <ButtonBase
        onClick={() => onEdit(tx)}
        aria-label={`Open ${label}`}
        sx={{ flex: 1, minWidth: 0, display: 'block', textAlign: 'left', py: 1, pr: 1.5, borderRadius: 1 }}
      >
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'break-word' }}>
            {tx.description}
            {tx.transferCounterpartAccount !== null && (
              <Typography component="span" variant="caption" sx={{ display: 'block', fontWeight: 400 }}>
                {transferChipText(tx)}
              </Typography>
            )}
          </Typography>
          <Typography variant="body2" component="span" sx={{ fontWeight: 600, flexShrink: 0 }}>
            <Amount cents={tx.amount} currency={tx.currency} />
            <OriginalAmount tx={tx} />
          </Typography>
        </Box>
        <Typography variant="caption" color="text.secondary" component="div" sx={{ overflowWrap: 'break-word' }}>
          {details}
        </Typography>
        {(tx.parentTransactionId !== null || (tx.isSplit && !split?.parts)) && (
          <Chip size="small" label={tx.isSplit ? 'Split' : 'Split part'} variant="outlined" sx={{ mt: 0.5 }} />
        )}
      </ButtonBase>
      {tx.account !== null && tx.bank_account_id !== null && (
        // Beside the card's button, not in it: a link inside a button is neither.
        <TextLink
          to="/accounts/$id"
          params={{ id: String(tx.bank_account_id) }}
          variant="caption"
          aria-label={`${tx.account} register`}
          sx={{ flexBasis: '100%', ml: 5.5, mt: -0.75, mb: 1, overflowWrap: 'break-word' }}
        >
          {tx.account}
        </TextLink>
      )}
      {split && <PartsToggle tx={tx} label={label} {...split} />}
      {(chip || tx.categorySource === 'suggested') && (
        <Box sx={{ pt: 1, pr: 1, flexShrink: 0 }}>
          {chip ? (
            <SuggestionChip suggestion={chip} rowLabel={label} onAccept={accept} />
          ) : (
            <CategorySourceMark source={tx.categorySource} category={tx.category} rowLabel={label} onAccept={accept} />
          )}
        </Box>
      )}
    </Paper>
  );
});

/** A split original's card: how many parts it has, showing or hiding them beneath it. */
function PartsToggle(props: {
  tx: TransactionDto;
  label: string;
  parts: number;
  expanded: boolean;
  onToggle: (id: number) => void;
}) {
  const { tx, label, parts, expanded, onToggle } = props;
  const text = `Split into ${parts} part${parts === 1 ? '' : 's'}`;
  if (parts === 0) return null;
  return (
    <Button
      size="small"
      aria-expanded={expanded}
      aria-label={`${text}: ${expanded ? 'hide' : 'show'} the parts of ${label}`}
      onClick={() => onToggle(tx.id)}
      startIcon={<span aria-hidden="true">{expanded ? '▾' : '▸'}</span>}
      sx={{ flexBasis: '100%', justifyContent: 'flex-start', ml: 5, mb: 0.5 }}
    >
      {text}
    </Button>
  );
}

interface CardsProps extends TransactionViewProps {
  onSortChange: (sort: SortState) => void;
}

/**
 * Below 768 px each transaction is a compact card (nothing cut, no sideways scrolling) with the
 * same selection and actions as the table; a card opens the transaction for editing.
 */
export function TransactionCards(props: CardsProps) {
  const { rows, selection, loading, emptyText, maxHeight } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 92,
    // Measured heights belong to a transaction, not a position: a filter or sort moves cards.
    getItemKey: (index) => must(rows[index], 'the virtualizer counts rows').id,
    overscan: 6,
    gap: 8,
    initialRect: { width: 360, height: maxHeight },
  });
  useRowFocus(props.focusRequest, rows, (index) => virtualizer.scrollToIndex(index, { align: 'center' }), scrollRef);

  return (
    <Box>
      <CardsToolbar {...props} />
      {loading && <LinearProgress aria-label="Loading transactions" sx={{ mb: 1 }} />}
      {rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
          {loading ? 'Loading transactions...' : emptyText}
        </Typography>
      ) : (
        <Box
          ref={scrollRef}
          role="list"
          aria-label="Transactions"
          sx={{ maxHeight, overflowY: 'auto', overflowX: 'hidden' }}
        >
          <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((item) => {
              const tx = must(rows[item.index], 'a virtual item indexes rows');
              return (
                <Box
                  key={tx.id}
                  role="listitem"
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  sx={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}
                >
                  <TransactionCard
                    tx={tx}
                    selected={selection.has(tx.id)}
                    suggestion={props.suggestions?.get(tx.id)}
                    nested={props.nested.has(tx.id)}
                    split={
                      tx.isSplit
                        ? {
                            parts: props.partCounts.get(tx.id) ?? 0,
                            expanded: !props.folded.has(tx.id),
                            onToggle: props.onToggleParts,
                          }
                        : undefined
                    }
                    onToggle={props.onToggle}
                    onEdit={props.onEdit}
                    onCategoryChange={props.onCategoryChange}
                  />
                </Box>
              );
            })}
          </Box>
        </Box>
      )}
    </Box>
  );
}

/** Above the cards: select all, and the sort the table's column headers would give. */
function CardsToolbar(props: CardsProps) {
  const { rows, selection, sort, selectAllRef } = props;
  const selectedCount = rows.reduce((n, tx) => (selection.has(tx.id) ? n + 1 : n), 0);
  const all = rows.length > 0 && selectedCount === rows.length;
  const some = selectedCount > 0 && !all;
  // MUI marks a partial selection with aria-checked="mixed"; the native property makes it valid ARIA.
  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = some;
  }, [some, selectAllRef]);
  return (
    <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}>
      <FormControlLabel
        sx={{ mr: 'auto' }}
        control={
          <Checkbox
            checked={all}
            indeterminate={some}
            disabled={rows.length === 0}
            onChange={props.onToggleAll}
            slotProps={{ input: { ref: props.selectAllRef } }}
          />
        }
        label="Select all transactions"
      />
      <TextField
        select
        label="Sort by"
        value={sort.key}
        onChange={(e) => props.onSortChange({ ...sort, key: e.target.value as SortKey })}
        sx={{ minWidth: 140 }}
      >
        {(Object.keys(SORT_LABELS) as SortKey[]).map((key) => (
          <MenuItem key={key} value={key}>
            {SORT_LABELS[key]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        label="Order"
        value={sort.direction}
        onChange={(e) => props.onSortChange({ ...sort, direction: e.target.value as SortDirection })}
        sx={{ minWidth: 130 }}
      >
        {(['desc', 'asc'] as const).map((direction) => (
          <MenuItem key={direction} value={direction}>
            {DIRECTION_LABELS[direction]}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
