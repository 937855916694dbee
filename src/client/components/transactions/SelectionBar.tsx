import { Box, Button, Paper, Stack, Typography } from '@mui/material';

interface SelectionBarProps {
  count: number;
  /** Exactly one row is selected and it is a split parent or part. */
  canInspect: boolean;
  busy: boolean;
  onBulkEdit: () => void;
  onDeleteSelected: () => void;
  onClearSelection: () => void;
  onSplit: () => void;
  onInspect: () => void;
  onEdit: () => void;
}

/** The width of the table's checkbox column: the bar leaves "Select all" uncovered. */
const CHECKBOX_COLUMN = 52;
/** The sticky navigation bar's height from 600 px up (MUI's regular toolbar): the bar sticks below it. */
const APP_BAR_HEIGHT = 64;

/**
 * Actions for the selected rows, shown only while some are selected and laid over the page rather than into it,
 * so selecting a row never moves a row (a click lands on the row it was aimed at): fixed to the bottom of the
 * viewport below 992 px (phones, tablets), and over the table's sticky header row from there up (its
 * "Select all" checkbox left visible), following the viewport's top when the page scrolls past the table's
 * top. The owner places it first in a positioned box around the table.
 */
export function SelectionBar(props: SelectionBarProps) {
  const { count, canInspect, busy } = props;
  if (count === 0) return null;
  const single = count === 1;
  const button = (text: string, onClick: () => void, extra: Record<string, unknown> = {}) => (
    <Button size="small" onClick={onClick} disabled={busy} {...extra}>
      {text}
    </Button>
  );
  return (
    // From 992 px up a sticky box of no height at the table's top: the bar lies over the header row, and stays
    // below the navigation bar when the page scrolls past it, still moving no row.
    <Box sx={{ position: { lg: 'sticky' }, top: APP_BAR_HEIGHT, height: 0, zIndex: (theme) => theme.zIndex.appBar }}>
      <Paper
        role="toolbar"
        aria-label="Selected transactions"
        elevation={6}
        square
        sx={{
          position: { xs: 'fixed', lg: 'absolute' },
          bottom: { xs: 0, lg: 'auto' },
          top: { lg: 0 },
          left: { xs: 0, lg: CHECKBOX_COLUMN },
          right: 0,
          zIndex: (theme) => theme.zIndex.appBar,
          minHeight: { lg: 45 },
          px: 1.5,
          py: { xs: 1, lg: 0.5 },
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 1,
          borderTop: { xs: 1, lg: 0 },
          borderColor: 'divider',
        }}
      >
        <Typography variant="body2" sx={{ mr: 1, fontWeight: 600 }} role="status">
          {count} selected
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          {button('Bulk Edit', props.onBulkEdit, { variant: 'contained' })}
          {button('Delete Selected', props.onDeleteSelected, { variant: 'outlined', color: 'error' })}
          {single && (
            <>
              {button('Split Transaction', props.onSplit, { variant: 'outlined' })}
              {canInspect && button('Inspect Split', props.onInspect, { variant: 'outlined' })}
              {button('Edit Transaction', props.onEdit, { variant: 'outlined' })}
            </>
          )}
          {button('Clear Selection', props.onClearSelection)}
        </Stack>
      </Paper>
    </Box>
  );
}
