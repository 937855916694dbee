import { Button, Paper, Stack, Typography } from '@mui/material';

interface SelectionBarProps {
  count: number;
  /** Exactly one row is selected and it is a split parent or part. */
  canInspect: boolean;
  busy: boolean;
  onBulkEdit(): void;
  onDeleteSelected(): void;
  onClearSelection(): void;
  onSplit(): void;
  onInspect(): void;
  onEdit(): void;
}

/** Actions for the selected rows (SPEC: Transaction table). */
export function SelectionBar(props: SelectionBarProps) {
  const { count, canInspect, busy } = props;
  return (
    <Paper
      variant="outlined"
      role="toolbar"
      aria-label="Selected transactions"
      sx={{ p: 1, mb: 1, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}
    >
      <Typography variant="body2" sx={{ mr: 1, fontWeight: 600 }} role="status">
        {count} selected
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button size="small" variant="contained" onClick={props.onBulkEdit} disabled={busy}>
          Bulk Edit
        </Button>
        <Button size="small" variant="outlined" color="error" onClick={props.onDeleteSelected} disabled={busy}>
          Delete Selected
        </Button>
        {count === 1 && (
          <>
            <Button size="small" variant="outlined" onClick={props.onSplit} disabled={busy}>
              Split Transaction
            </Button>
            {canInspect && (
              <Button size="small" variant="outlined" onClick={props.onInspect} disabled={busy}>
                Inspect Split
              </Button>
            )}
            <Button size="small" variant="outlined" onClick={props.onEdit} disabled={busy}>
              Edit Transaction
            </Button>
          </>
        )}
        <Button size="small" onClick={props.onClearSelection} disabled={busy}>
          Clear Selection
        </Button>
      </Stack>
    </Paper>
  );
}
