import { Alert, Button, Link, Stack, TextField, Typography } from '@mui/material';
import { useState, type SubmitEvent } from 'react';
import type { AuthResult } from '../../../shared/schemas/auth';
import { isServerError, serverMessage, trpc } from '../../lib/trpc';

interface CodeStepProps {
  mfaToken: string;
  onBack: () => void;
  signIn: (result: AuthResult) => void;
}

/** The second step of a two-factor sign-in: a code from the authenticator app, or a recovery code. */
export function CodeStep({ mfaToken, onBack, signIn }: CodeStepProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState('');
  const verify = trpc.auth.verifyMfa.useMutation();

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setError('');
    try {
      signIn(await verify.mutateAsync({ mfaToken, code }));
    } catch (failure) {
      setError(
        isServerError(failure) ? serverMessage(failure, 'Sign-in failed') : 'Something went wrong. Please try again.',
      );
    }
  }

  return (
    <Stack component="form" spacing={2} onSubmit={(event) => void submit(event)} sx={{ mt: 2 }}>
      <Typography variant="body2">Two-factor sign-in is on for this account.</Typography>
      <TextField
        label="Authentication code"
        name="code"
        autoComplete="one-time-code"
        required
        fullWidth
        value={code}
        onChange={(e) => setCode(e.target.value)}
        helperText="The 6-digit code from your authenticator app, or one of your recovery codes"
        slotProps={{ htmlInput: { inputMode: 'text', autoCapitalize: 'none', spellCheck: false } }}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- this step exists to type the code: focus starts there
        autoFocus
      />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={verify.isPending}>
        {verify.isPending ? 'Checking...' : 'Verify'}
      </Button>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Typography variant="body2" align="center">
        <Link component="button" type="button" onClick={onBack}>
          Back to password
        </Link>
      </Typography>
    </Stack>
  );
}
