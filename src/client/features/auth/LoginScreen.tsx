import { Alert, Box, Button, Card, CardContent, Link, Stack, TextField, Typography } from '@mui/material';
import { currencyOfLocale } from '../../../shared/money/currencies';
import { useState, type SubmitEvent } from 'react';
import { PASSWORD_MIN_LENGTH } from '../../../shared/schemas/auth';
import { LoadingScreen } from '../../components/LoadingScreen';
import { useAuth } from '../../lib/auth';
import { CodeStep } from './CodeStep';
import { isServerError, serverFieldErrors, serverMessage, trpc } from '../../lib/trpc';

type Mode = 'login' | 'register';

/**
 * The centred login card. When the server accepts registrations it also offers
 * creating an account; on a new instance (no users yet) it opens in that mode.
 */
export function LoginScreen() {
  const { signIn } = useAuth();
  const status = trpc.auth.status.useQuery(undefined, { staleTime: 0 });
  const [chosenMode, setMode] = useState<Mode | null>(null);
  const registrationOpen = status.data?.registrationOpen ?? false;
  const firstRun = status.data ? !status.data.hasUsers : false;
  const mode: Mode = registrationOpen ? (chosenMode ?? (firstRun ? 'register' : 'login')) : 'login';
  const form = useCredentialsForm(mode, signIn);

  function switchMode(next: Mode) {
    setMode(next);
    form.reset();
  }

  // The auth state is not known until the server says whether it has users.
  if (status.isPending) return <LoadingScreen />;

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        bgcolor: 'background.default',
      }}
    >
      <Card sx={{ width: '100%', maxWidth: 400 }} elevation={3}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Typography variant="h1" component="h1" align="center" gutterBottom>
            Budget Tracker
          </Typography>
          {mode === 'register' && (
            <Typography variant="body2" color="text.secondary" align="center" sx={{ mb: 1 }}>
              {firstRun ? 'Welcome! Create the first account on this server.' : 'Create a new account.'}
            </Typography>
          )}
          {form.mfaToken !== null ? (
            <CodeStep mfaToken={form.mfaToken} onBack={form.cancelMfa} signIn={signIn} />
          ) : (
            <CredentialsForm form={form} mode={mode} />
          )}
          {registrationOpen && form.mfaToken === null && <ModeSwitch mode={mode} onSwitch={switchMode} />}
        </CardContent>
      </Card>
    </Box>
  );
}

/** Username and password, and Login or Create account; a refusal shows under the field it names, or below. */
function CredentialsForm({ form, mode }: { form: ReturnType<typeof useCredentialsForm>; mode: Mode }) {
  const { username, setUsername, password, setPassword, error, fieldErrors, setFieldErrors, busy } = form;
  const submitLabel =
    mode === 'login' ? (busy ? 'Logging in...' : 'Login') : busy ? 'Creating account...' : 'Create account';
  return (
    <Stack component="form" spacing={2} onSubmit={(event) => void form.submit(event)} noValidate={false} sx={{ mt: 2 }}>
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        required
        fullWidth
        size="medium"
        value={username}
        onChange={(e) => {
          setUsername(e.target.value);
          setFieldErrors((current) => ({ ...current, username: undefined }));
        }}
        error={Boolean(fieldErrors.username)}
        helperText={fieldErrors.username}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the sign-in screen exists to type a username: focus starts there
        autoFocus
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
        required
        fullWidth
        size="medium"
        value={password}
        onChange={(e) => {
          setPassword(e.target.value);
          setFieldErrors((current) => ({ ...current, password: undefined }));
        }}
        error={Boolean(fieldErrors.password)}
        helperText={
          fieldErrors.password ?? (mode === 'register' ? `At least ${PASSWORD_MIN_LENGTH} characters` : undefined)
        }
      />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={busy}>
        {submitLabel}
      </Button>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}

/** "No account yet? Create an account" / "Already have an account? Log in instead". */
function ModeSwitch({ mode, onSwitch }: { mode: Mode; onSwitch: (mode: Mode) => void }) {
  return (
    <Typography variant="body2" align="center" sx={{ mt: 2 }}>
      {mode === 'login' ? (
        <>
          No account yet?{' '}
          <Link component="button" type="button" onClick={() => onSwitch('register')}>
            Create an account
          </Link>
        </>
      ) : (
        <>
          Already have an account?{' '}
          <Link component="button" type="button" onClick={() => onSwitch('login')}>
            Log in instead
          </Link>
        </>
      )}
    </Typography>
  );
}

/** The username and password, their errors, and signing in or registering with them. */
function useCredentialsForm(mode: Mode, signIn: ReturnType<typeof useAuth>['signIn']) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ username?: string; password?: string }>({});
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const login = trpc.auth.login.useMutation();
  const register = trpc.auth.register.useMutation();
  const busy = login.isPending || register.isPending;

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setError('');
    setFieldErrors({});
    try {
      const result =
        mode === 'login'
          ? await login.mutateAsync({ username, password })
          : // The home currency starts as the browser's region's; Profile changes it.
            await register.mutateAsync({ username, password, homeCurrency: currencyOfLocale(navigator.language) });
      // Two-factor sign-in: the password was right, a code completes it.
      if ('mfaRequired' in result) setMfaToken(result.mfaToken);
      else signIn(result);
    } catch (failure) {
      if (isServerError(failure)) {
        // "password: Password must be at least 8 characters" goes under Password, without the prefix.
        const byField = serverFieldErrors(failure, ['username', 'password'] as const);
        setFieldErrors(byField.fields);
        const named = Object.keys(byField.fields).length > 0;
        if (!named || byField.rest)
          setError(byField.rest || serverMessage(failure, mode === 'login' ? 'Login failed' : 'Registration failed'));
      } else {
        setError('Something went wrong. Please try again.');
      }
    }
  }

  function reset() {
    setError('');
    setFieldErrors({});
  }

  function cancelMfa() {
    setMfaToken(null);
    setPassword('');
  }

  return {
    username,
    setUsername,
    password,
    setPassword,
    error,
    fieldErrors,
    setFieldErrors,
    busy,
    submit,
    reset,
    mfaToken,
    cancelMfa,
  };
}
