import { Box, IconButton, Tooltip } from '@mui/material';
import type { CategorySource } from '../../../shared/schemas/suggest';

const TEXT: Record<Exclude<CategorySource, 'user'>, { mark: string; title: string }> = {
  bank: { mark: 'B', title: "Category from the bank's file" },
  rule: { mark: 'R', title: 'Category set by a rule' },
  suggested: { mark: 'S', title: 'Suggested from your history: press to accept' },
};

/**
 * A subtle marker of where a row's category came from (nothing for a person's own choice). A
 * suggested one is a button: pressing it accepts the category, which makes it the person's.
 */
export function CategorySourceMark({ source, category, rowLabel, onAccept }: { source: CategorySource | null; category: string | null; rowLabel: string; onAccept: (category: string) => void }) {
  if (!source || source === 'user' || !category) return null;
  const { mark, title } = TEXT[source];
  const badge = (
    <Box component="span" sx={{ fontSize: '0.7rem', fontWeight: 600, lineHeight: 1, color: 'text.secondary', border: 1, borderColor: 'divider', borderRadius: 1, px: 0.5, py: 0.25 }}>
      {mark}
    </Box>
  );
  if (source !== 'suggested') {
    return (
      <Tooltip title={title}>
        <Box component="span" aria-label={title} data-category-source={source} sx={{ flexShrink: 0, display: 'inline-flex' }}>
          {badge}
        </Box>
      </Tooltip>
    );
  }
  return (
    <Tooltip title={title}>
      <IconButton size="small" aria-label={`Accept suggested category ${category} for ${rowLabel}`} data-category-source={source} onClick={() => onAccept(category)} sx={{ p: 0.25, flexShrink: 0 }}>
        {badge}
      </IconButton>
    </Tooltip>
  );
}
