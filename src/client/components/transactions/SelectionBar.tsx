import { Box, Button, Paper, Stack, Typography } from '@mui/material';

interface SelectionBarProps {
  count: number;
  /** All rows of the table: the space kept for the bar fits the widest bar it can show. */
  total: number;
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

type BarContentProps = Omit<SelectionBarProps, 'total'> & { sizer?: boolean; sizerCount?: number };

/**
 * A label in the bar. In the invisible sizer the text is drawn by CSS (`::before`), so it takes
 * the same room without being text on the page (no second "Bulk Edit" for anyone to find).
 */
function label(text: string, sizer: boolean) {
  return sizer ? { children: null, sx: { '&::before': { content: JSON.stringify(text) } } } : { children: text };
}

function BarContent(props: BarContentProps) {
  const { count, canInspect, busy, sizer = false } = props;
  const single = sizer || count === 1;
  const button = (text: string, onClick: () => void, extra: Record<string, unknown> = {}) => {
    const { children, sx } = label(text, sizer);
    return (
      <Button size="small" onClick={onClick} disabled={busy} tabIndex={sizer ? -1 : undefined} sx={sx} {...extra}>
        {children}
      </Button>
    );
  };
  const status = label(`${sizer ? props.sizerCount : count} selected`, sizer);
  return (
    <>
      <Typography variant="body2" sx={{ mr: 1, fontWeight: 600, ...status.sx }} role={sizer ? undefined : 'status'}>
        {status.children}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        {button('Bulk Edit', props.onBulkEdit, { variant: 'contained' })}
        {button('Delete Selected', props.onDeleteSelected, { variant: 'outlined', color: 'error' })}
        {single && (
          <>
            {button('Split Transaction', props.onSplit, { variant: 'outlined' })}
            {(canInspect || sizer) && button('Inspect Split', props.onInspect, { variant: 'outlined' })}
            {button('Edit Transaction', props.onEdit, { variant: 'outlined' })}
          </>
        )}
        {button('Clear Selection', props.onClearSelection)}
      </Stack>
    </>
  );
}

const noop = () => undefined;
const layer = {
  gridArea: '1 / 1',
  p: 1,
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  alignContent: 'flex-start',
  gap: 1,
  minWidth: 0,
} as const;

/**
 * Actions for the selected rows. Its space is always kept, sized for
 * the widest bar it can show, so selecting a row never moves the rows below: a click lands on
 * the row it was aimed at.
 */
export function SelectionBar(props: SelectionBarProps) {
  const { count, total } = props;
  return (
    <Paper variant="outlined" sx={{ mb: 1, display: 'grid', bgcolor: count > 0 ? undefined : 'transparent' }}>
      {/* The widest bar (one row selected, a split): invisible, it only holds the space. */}
      <Box aria-hidden="true" sx={{ ...layer, visibility: 'hidden' }}>
        <BarContent
          sizer
          sizerCount={Math.max(total, 1)}
          count={1}
          canInspect
          busy={false}
          onBulkEdit={noop}
          onDeleteSelected={noop}
          onClearSelection={noop}
          onSplit={noop}
          onInspect={noop}
          onEdit={noop}
        />
      </Box>
      {count > 0 ? (
        <Box role="toolbar" aria-label="Selected transactions" sx={layer}>
          <BarContent {...props} />
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary" sx={{ ...layer, display: 'flex' }}>
          Select transactions to edit, split or delete them.
        </Typography>
      )}
    </Paper>
  );
}
