import { Box, LinearProgress, ListItem, ListItemButton, Typography } from '@mui/material';
import type { ReactNode } from 'react';

interface OverviewRowProps {
  label: string;
  /** Small text under the label (count, categories). */
  detail?: ReactNode;
  /** The figures, right-aligned ("450.00" or "123.45 of 600.00"). */
  figure: string;
  /** 0-100 for a budget bar; omitted for rows without one. */
  progress?: number;
  over?: boolean;
  selected: boolean;
  onClick: () => void;
}

/**
 * One clickable row of the overview panel (a list item): a toggle button (aria-pressed) that
 * filters the transaction table. The bar only repeats the figures, so it is hidden from
 * screen readers.
 */
export function OverviewRow({ label, detail, figure, progress, over = false, selected, onClick }: OverviewRowProps) {
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <ListItemButton
        selected={selected}
        aria-pressed={selected}
        onClick={onClick}
        dense
        sx={{
          display: 'block',
          borderRadius: 1,
          py: 0.75,
          '&.Mui-selected': { outline: 2, outlineColor: 'primary.main', outlineOffset: -2 },
        }}
      >
        <Box
          sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 1, flexWrap: 'wrap' }}
        >
          <Typography
            component="span"
            variant="body2"
            sx={{ fontWeight: 600, minWidth: 0, overflowWrap: 'break-word' }}
          >
            {label}
          </Typography>
          <Typography
            component="span"
            variant="body2"
            sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', ml: 'auto' }}
          >
            {figure}
          </Typography>
        </Box>
        {progress !== undefined && (
          <LinearProgress
            variant="determinate"
            value={progress}
            color={over ? 'error' : 'primary'}
            aria-hidden="true"
            sx={{ my: 0.5, height: 6, borderRadius: 3 }}
          />
        )}
        {detail && (
          <Typography
            component="span"
            variant="caption"
            color="text.secondary"
            sx={{ display: 'block', overflowWrap: 'break-word' }}
          >
            {detail}
          </Typography>
        )}
      </ListItemButton>
    </ListItem>
  );
}
