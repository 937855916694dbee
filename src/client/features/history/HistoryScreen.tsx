import { Box, Tab, Tabs, Typography } from '@mui/material';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { ChangeList } from './ChangeList';
import { TrashList } from './TrashList';

const route = getRouteApi('/_auth/history');

/** History (/history): every change with undo and redo, and the trash of deleted transactions. */
export function HistoryScreen() {
  const { view } = route.useSearch();
  const navigate = useNavigate();
  return (
    <Box sx={{ maxWidth: 1100 }}>
      <Typography variant="h1" gutterBottom>
        History
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Every change you make is kept here. The last 100 can be undone (Ctrl+Z) and redone (Shift+Ctrl+Z), even after a
        reload; deleted transactions wait in the trash.
      </Typography>
      <Tabs
        value={view}
        onChange={(_event, next: 'changes' | 'trash') => void navigate({ to: '/history', search: { view: next } })}
        aria-label="History views"
        sx={{ mb: 2 }}
      >
        <Tab label="Changes" value="changes" />
        <Tab label="Trash" value="trash" />
      </Tabs>
      {view === 'trash' ? <TrashList /> : <ChangeList />}
    </Box>
  );
}
