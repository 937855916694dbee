import { Chip, Tooltip } from '@mui/material';
import type { SuggestionDto } from '../../../shared/schemas/suggest';

/** A suggestion below the import threshold, shown in an uncategorised row: one click sets it. */
export function SuggestionChip({
  suggestion,
  rowLabel,
  onAccept,
}: {
  suggestion: SuggestionDto;
  rowLabel: string;
  onAccept: (category: string) => void;
}) {
  if (suggestion.category === null) return null;
  const category = suggestion.category;
  return (
    <Tooltip title={`${suggestion.reason} (confidence ${Math.round(suggestion.confidence * 100)}%)`}>
      <Chip
        size="small"
        variant="outlined"
        color="secondary"
        label={`${category}?`}
        onClick={() => onAccept(category)}
        aria-label={`Use suggested category ${category} for ${rowLabel}`}
        data-suggestion={category}
        // Gives way to the category select beside it: the label shortens (its full text is in the name and tooltip).
        sx={{ flexShrink: 1, minWidth: 0, maxWidth: 140 }}
      />
    </Tooltip>
  );
}
