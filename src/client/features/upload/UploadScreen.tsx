import { Box, Grid, Typography } from '@mui/material';
import { Notice, useNotice } from '../../components/Notice';
import { trpc } from '../../lib/trpc';
import { AccountsWidget } from './AccountsWidget';
import { BatchManager } from './BatchManager';
import { UploadForm } from './UploadForm';

/** Upload (/upload): the CSV import with its preview, the Accounts widget beside it, the batches below. */
export function UploadScreen() {
  const accounts = trpc.accounts.list.useQuery();
  const [notice, showNotice, clearNotice] = useNotice();
  return (
    <Box>
      <Typography variant="h1" gutterBottom>
        Upload
      </Typography>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 8 }}>
          <UploadForm accounts={accounts.data ?? []} />
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <AccountsWidget
            accounts={accounts.data ?? []}
            loading={accounts.isLoading}
            failed={accounts.isError}
            showNotice={showNotice}
          />
        </Grid>
      </Grid>
      <BatchManager showNotice={showNotice} />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}
