import { IconButton, Tooltip } from '@mui/material';
import type { CategorySource } from '../../../shared/schemas/suggest';
import { ROW_CLASS } from './rowStyles';

const TEXT: Record<Exclude<CategorySource, 'user'>, { mark: string; title: string }> = {
  bank: { mark: 'B', title: "Category from the bank's file" },
  rule: { mark: 'R', title: 'Category set by a rule' },
  suggested: { mark: 'S', title: 'Suggested from your history: press to accept' },
};

/**
 * A subtle marker of where a row's category came from (nothing for a person's own choice). A
 * suggested one is a button: pressing it accepts the category, which makes it the person's.
 */
export function CategorySourceMark({
  source,
  category,
  rowLabel,
  onAccept,
}: {
  source: CategorySource | null;
  category: string | null;
  rowLabel: string;
  onAccept: (category: string) => void;
}) {
  if (!source || source === 'user' || !category) return null;
  const { mark, title } = TEXT[source];
  if (source !== 'suggested') {
    // In most imported rows: a plain span with a native tooltip (no MUI Tooltip per row).
    return (
      <span className={ROW_CLASS.mark} role="img" aria-label={title} title={title} data-category-source={source}>
        {mark}
      </span>
    );
  }
  const badge = <span className={ROW_CLASS.mark}>{mark}</span>;
  return (
    <Tooltip title={title}>
      <IconButton
        size="small"
        aria-label={`Accept suggested category ${category} for ${rowLabel}`}
        data-category-source={source}
        onClick={() => onAccept(category)}
        sx={{ p: 0.25, flexShrink: 0 }}
      >
        {badge}
      </IconButton>
    </Tooltip>
  );
}
