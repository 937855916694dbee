import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  Alert,
  Box,
  Button,
  IconButton,
  InputAdornment,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState, type SubmitEvent } from 'react';
import { Notice, useNotice } from '../../components/Notice';
import { useAuth } from '../../lib/auth';
import { serverMessage, trpc } from '../../lib/trpc';
import { formatDateTime } from '../../lib/format';
import { DataSection } from './DataSection';
import { HomeCurrencySection } from './HomeCurrencySection';
import { RetentionSection } from './RetentionSection';
import { SignInsSection } from './SignInsSection';
import { TwoFactorSection } from './TwoFactorSection';
import { generateApiToken, profileChanges } from './profile-helpers';

/**
 * Update Profile: username, new password with confirmation, API token, and the
 * current password that every change needs (a stolen session alone cannot take the
 * account over); then two-factor sign-in, the list of sign-ins and the data section.
 */
export function ProfileScreen() {
  const [notice, showNotice, clearNotice] = useNotice();
  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h1" gutterBottom>
        Update Profile
      </Typography>
      <ProfileForm onSaved={showNotice} />
      <TwoFactorSection />
      <SignInsSection onNotice={(text) => showNotice(text)} />
      <HomeCurrencySection />
      <RetentionSection />
      <DataSection />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}

/**
 * The profile form's fields and its two actions. Only changed fields are sent. The server keeps only a hash of the
 * API token, so a token is shown once, right after it is saved.
 */
function useProfileForm(onSaved: (text: string) => void) {
  const { user, updateUser } = useAuth();
  const [username, setUsername] = useState(user?.username ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [apiToken, setApiToken] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [error, setError] = useState('');
  const [savedToken, setSavedToken] = useState<string | null>(null);
  const update = trpc.auth.updateProfile.useMutation();

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setError('');
    const checked = profileChanges({ username, password, confirm, apiToken, currentPassword }, user?.username);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    const { changes } = checked;
    try {
      const updated = await update.mutateAsync({ ...changes, currentPassword });
      updateUser(updated);
      setUsername(updated.username);
      setPassword('');
      setConfirm('');
      setCurrentPassword('');
      if (changes.apiToken) setSavedToken(changes.apiToken);
      setApiToken('');
      onSaved('Profile updated successfully');
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to update profile. Please try again.'));
    }
  }

  async function removeToken() {
    setError('');
    if (!currentPassword) {
      setError('Enter your current password to remove the API token');
      return;
    }
    try {
      updateUser(await update.mutateAsync({ apiToken: null, currentPassword }));
      setCurrentPassword('');
      setSavedToken(null);
      onSaved('API token removed');
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to update profile. Please try again.'));
    }
  }

  const fields = { username, password, confirm, apiToken, currentPassword, savedToken };
  const setters = { setUsername, setPassword, setConfirm, setApiToken, setCurrentPassword, setSavedToken };
  return { user, fields, setters, error, saving: update.isPending, submit, removeToken };
}

/** Username, new password, API token and the current password every change needs. */
function ProfileForm({ onSaved }: { onSaved: (text: string) => void }) {
  const { user, fields, setters, error, saving, submit, removeToken } = useProfileForm(onSaved);
  return (
    <Paper component="form" onSubmit={(event) => void submit(event)} sx={{ p: { xs: 2, sm: 3 } }} noValidate>
      <Stack spacing={2.5}>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          required
          value={fields.username}
          onChange={(e) => setters.setUsername(e.target.value)}
        />
        <NewPasswordFields
          password={fields.password}
          confirm={fields.confirm}
          onPassword={(value) => {
            setters.setPassword(value);
            if (!value) setters.setConfirm('');
          }}
          onConfirm={setters.setConfirm}
        />
        <ApiTokenField
          value={fields.apiToken}
          onChange={setters.setApiToken}
          tokenSet={user?.apiTokenSet ? { since: user.apiTokenCreatedAt } : null}
          busy={saving}
          onRemove={() => void removeToken()}
        />
        {fields.savedToken && <SavedToken token={fields.savedToken} onClose={() => setters.setSavedToken(null)} />}
        <TextField
          label="Current password"
          name="current-password"
          type="password"
          autoComplete="current-password"
          value={fields.currentPassword}
          onChange={(e) => setters.setCurrentPassword(e.target.value)}
          helperText="Required to save any change"
        />
        <SaveChanges error={error} saving={saving} />
      </Stack>
    </Paper>
  );
}

interface ApiTokenFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** The stored token, if one is set: when it was created. */
  tokenSet: { since: string | null } | null;
  busy: boolean;
  onRemove: () => void;
}

/** The API token to save (typed or generated), and Remove API token when one is set. */
function ApiTokenField({ value, onChange, tokenSet, busy, onRemove }: ApiTokenFieldProps) {
  return (
    <Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'flex-start' }}>
        <TextField
          label="API Token"
          name="api-token"
          autoComplete="off"
          fullWidth
          value={value}
          onChange={(e) => onChange(e.target.value)}
          helperText={
            tokenSet !== null
              ? `A token is set (since ${formatDateTime(tokenSet.since)}). Saving a new one replaces it.`
              : 'No API token is set. Generate one to use the REST API from scripts.'
          }
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        />
        <Button
          variant="outlined"
          onClick={() => onChange(generateApiToken())}
          sx={{ flexShrink: 0, mt: { sm: '2px' } }}
        >
          Generate
        </Button>
      </Stack>
      {tokenSet !== null && (
        <Button size="small" color="error" onClick={onRemove} sx={{ mt: 1 }} disabled={busy}>
          Remove API token
        </Button>
      )}
    </Box>
  );
}

/** The token just saved, shown once with a copy button (the server keeps only its hash). */
function SavedToken({ token, onClose }: { token: string; onClose: () => void }) {
  return (
    <Alert severity="info" onClose={onClose}>
      <Typography variant="body2" gutterBottom>
        Your API token is saved. Copy it now: it will not be shown again.
      </Typography>
      <TextField
        value={token}
        fullWidth
        slotProps={{
          htmlInput: { readOnly: true, 'aria-label': 'Saved API token', style: { fontFamily: 'monospace' } },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title="Copy">
                  {/* eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- navigator.clipboard is undefined outside secure contexts (plain http) */}
                  <IconButton aria-label="Copy API token" onClick={() => void navigator.clipboard?.writeText(token)}>
                    <ContentCopyIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
    </Alert>
  );
}

interface NewPasswordFieldsProps {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
}

/** New Password and its confirmation (enabled once a new password is typed). */
function NewPasswordFields({ password, confirm, onPassword, onConfirm }: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label="New Password"
        name="new-password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => onPassword(e.target.value)}
        helperText="Leave empty to keep your current password"
      />
      <TextField
        label="Confirm Password"
        name="confirm-password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        disabled={!password}
        onChange={(e) => onConfirm(e.target.value)}
      />
    </>
  );
}

/** What stopped the save (if anything) and Save Changes. */
function SaveChanges({ error, saving }: { error: string; saving: boolean }) {
  return (
    <>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Box>
        <Button type="submit" variant="contained" disabled={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </Button>
      </Box>
    </>
  );
}
