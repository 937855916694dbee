import { Alert, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import type { SignInDto } from '../../../shared/schemas/auth';
import { ListStatus } from '../../components/ListStatus';
import { formatDateTime } from '../../lib/format';
import { refusalMessage, trpc } from '../../lib/trpc';

/**
 * Where the account is signed in: each live sign-in's device, address, when it began and was last seen, "This
 * device" for the one in use; any other can be signed out, or all of them at once.
 */
export function SignInsSection({ onNotice }: { onNotice: (text: string) => void }) {
  const signIns = trpc.auth.signIns.useQuery(undefined, { staleTime: 0 });
  const utils = trpc.useUtils();
  const revoke = trpc.auth.revokeSignIn.useMutation({ onSettled: () => utils.auth.signIns.invalidate() });
  const revokeOthers = trpc.auth.revokeOtherSignIns.useMutation({
    onSettled: () => utils.auth.signIns.invalidate(),
  });
  const rows = signIns.data ?? [];
  const others = rows.filter((row) => !row.current).length;
  const failure = revoke.error ?? revokeOthers.error;

  async function signOutOthers() {
    const { revoked } = await revokeOthers.mutateAsync();
    onNotice(revoked === 1 ? 'Signed out 1 other sign-in' : `Signed out ${revoked} other sign-ins`);
  }

  return (
    <Paper component="section" aria-labelledby="sign-ins-heading" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}>
      <Typography id="sign-ins-heading" variant="h2" gutterBottom>
        Sign-ins
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        Browsers and scripts signed in to this account. Signing one out ends it at once. API tokens are not listed.
      </Typography>
      <ListStatus
        query={signIns}
        empty={rows.length === 0}
        loadingLabel="Loading sign-ins"
        errorText="Failed to fetch sign-ins"
        emptyText="No browser is signed in with a password (this one uses an API token)."
      />
      <Stack component="ul" aria-label="Sign-ins" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }}>
        {rows.map((row) => (
          <SignInRow
            key={row.id}
            row={row}
            busy={revoke.isPending}
            onSignOut={() =>
              void revoke.mutateAsync({ id: row.id }).then(
                () => onNotice('Signed out'),
                () => {},
              )
            }
          />
        ))}
      </Stack>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {refusalMessage(failure, 'Failed to sign out')}
        </Alert>
      )}
      <Box sx={{ mt: 2 }}>
        <Button
          variant="outlined"
          color="error"
          disabled={others === 0 || revokeOthers.isPending}
          onClick={() => void signOutOthers().catch(() => {})}
        >
          Sign out everywhere else
        </Button>
      </Box>
    </Paper>
  );
}

function SignInRow({ row, busy, onSignOut }: { row: SignInDto; busy: boolean; onSignOut: () => void }) {
  const labelId = `sign-in-${row.id}`;
  return (
    <Box
      component="li"
      aria-labelledby={labelId}
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        p: 1.5,
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1,
        alignItems: 'center',
      }}
    >
      <Box sx={{ flex: '1 1 16rem', minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography id={labelId} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {row.device}
          </Typography>
          {row.current && <Chip size="small" color="primary" label="This device" />}
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          Address {row.address ?? 'unknown'} · Signed in {formatDateTime(row.createdAt)} · Last seen{' '}
          {formatDateTime(row.lastSeenAt)}
        </Typography>
      </Box>
      {!row.current && (
        <Button
          size="small"
          variant="outlined"
          disabled={busy}
          aria-label={`Sign out ${row.device}, ${row.address ?? 'unknown address'}`}
          onClick={onSignOut}
        >
          Sign out
        </Button>
      )}
    </Box>
  );
}
