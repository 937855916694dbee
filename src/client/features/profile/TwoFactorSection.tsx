import { Alert, Box, Button, CircularProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import { lazy, Suspense, useState, type ReactNode, type SubmitEvent } from 'react';
import type { MfaSetup } from '../../../shared/schemas/auth';
import { useAuth } from '../../lib/auth';
import { serverMessage, trpc } from '../../lib/trpc';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';

/** The QR encoder is fetched when a setup starts, not with the Profile screen. */
const QrCode = lazy(() => import('./QrCode'));

/** Re-reads the signed-in user (two-factor on or off, recovery codes left) after a change. */
function useRefreshUser() {
  const { updateUser } = useAuth();
  const utils = trpc.useUtils();
  return async () => updateUser(await utils.auth.me.fetch(undefined, { staleTime: 0 }));
}

/**
 * Two-factor sign-in on the Profile screen: set up with the current password (a QR code of the otpauth URL and the
 * secret as text), turn on with a code from the app (the ten recovery codes are shown once), or turn off with the
 * current password.
 */
export function TwoFactorSection() {
  const { user } = useAuth();
  const [setup, setSetup] = useState<MfaSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  let body: ReactNode;
  if (codes) body = <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />;
  else if (user?.mfaEnabled) body = <TurnOffForm codesLeft={user.recoveryCodesLeft} />;
  else if (setup)
    body = (
      <ConfirmSetup
        setup={setup}
        onEnabled={(recoveryCodes) => {
          setSetup(null);
          setCodes(recoveryCodes);
        }}
        onCancel={() => setSetup(null)}
      />
    );
  else body = <StartSetup onSetup={setSetup} />;
  return (
    <Paper component="section" aria-labelledby="two-factor-heading" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}>
      <Typography id="two-factor-heading" variant="h2" gutterBottom>
        Two-factor sign-in
      </Typography>
      {body}
    </Paper>
  );
}

/**
 * The current password, as every two-factor change asks for it ("Your password": the profile form above has its own
 * "Current password").
 */
function CurrentPassword({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <TextField
      label="Your password"
      name="mfa-current-password"
      type="password"
      autoComplete="current-password"
      required
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

function FormError({ error }: { error: string }) {
  return error ? (
    <Alert severity="error" role="alert">
      {error}
    </Alert>
  ) : null;
}

/** Off: explains what it is and starts a setup with the current password. */
function StartSetup({ onSetup }: { onSetup: (setup: MfaSetup) => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const start = trpc.auth.setupMfa.useMutation();

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setError('');
    if (!password) {
      setError('Enter your current password to set up two-factor sign-in');
      return;
    }
    try {
      onSetup(await start.mutateAsync({ currentPassword: password }));
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to set up two-factor sign-in'));
    }
  }

  return (
    <Stack component="form" spacing={2} noValidate onSubmit={(event) => void submit(event)}>
      <Typography variant="body2" color="text.secondary">
        Off. With it on, signing in asks for a code from an authenticator app (or a recovery code) after the password.
      </Typography>
      <CurrentPassword value={password} onChange={setPassword} />
      <FormError error={error} />
      <Box>
        <Button type="submit" variant="contained" disabled={start.isPending}>
          {start.isPending ? 'Setting up...' : 'Set up two-factor sign-in'}
        </Button>
      </Box>
    </Stack>
  );
}

interface ConfirmSetupProps {
  setup: MfaSetup;
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}

/** The QR code and the secret to add to an app, and the app's code that turns two-factor sign-in on. */
function ConfirmSetup({ setup, onEnabled, onCancel }: ConfirmSetupProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const enable = trpc.auth.enableMfa.useMutation();
  const refreshUser = useRefreshUser();

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setError('');
    if (!code.trim()) {
      setError('Enter the 6-digit code the app shows');
      return;
    }
    try {
      const { recoveryCodes } = await enable.mutateAsync({ code });
      onEnabled(recoveryCodes);
      await refreshUser();
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to turn on two-factor sign-in'));
    }
  }

  return (
    <Stack component="form" spacing={2} noValidate onSubmit={(event) => void submit(event)}>
      <Typography variant="body2">
        Scan the QR code with an authenticator app, or type the secret into it, then enter the code the app shows.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        <Suspense fallback={<CircularProgress aria-label="Loading the QR code" />}>
          <QrCode value={setup.otpauthUrl} label="QR code to add Budget Tracker to an authenticator app" />
        </Suspense>
        <TextField
          label="Secret"
          value={setup.secret}
          fullWidth
          helperText="For apps that cannot scan: type it in as a time-based key"
          slotProps={{ htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
      </Stack>
      <TextField
        label="Code from the app"
        name="code"
        autoComplete="one-time-code"
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
        slotProps={{ htmlInput: { inputMode: 'numeric', spellCheck: false } }}
      />
      <FormError error={error} />
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={enable.isPending}>
          {enable.isPending ? 'Turning on...' : 'Turn on'}
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </Stack>
    </Stack>
  );
}

/** On: how many recovery codes are left, and turning it off with the current password. */
function TurnOffForm({ codesLeft }: { codesLeft: number }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const disable = trpc.auth.disableMfa.useMutation();
  const refreshUser = useRefreshUser();

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setError('');
    if (!password) {
      setError('Enter your current password to turn two-factor sign-in off');
      return;
    }
    try {
      await disable.mutateAsync({ currentPassword: password });
      setPassword('');
      await refreshUser();
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to turn off two-factor sign-in'));
    }
  }

  return (
    <Stack component="form" spacing={2} noValidate onSubmit={(event) => void submit(event)}>
      <Typography variant="body2">
        On. Signing in asks for a code from your authenticator app. Unused recovery codes: {codesLeft}.
      </Typography>
      <CurrentPassword value={password} onChange={setPassword} />
      <FormError error={error} />
      <Box>
        <Button type="submit" variant="outlined" color="error" disabled={disable.isPending}>
          {disable.isPending ? 'Turning off...' : 'Turn off two-factor sign-in'}
        </Button>
      </Box>
    </Stack>
  );
}
