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
import { useState, type FormEvent } from 'react';
import { apiTokenSchema, usernameSchema, type ProfileUpdateInput } from '../../../shared/schemas/auth';
import { Notice, useNotice } from '../../components/Notice';
import { useAuth } from '../../lib/auth';
import { serverMessage, trpc } from '../../lib/trpc';
import { formatDateTime } from '../../lib/format';
import { DataSection } from './DataSection';
import { generateApiToken } from './profile-helpers';

/**
 * Update Profile: username, new password with confirmation, API token, and the
 * current password that every change needs (a stolen session alone cannot take the
 * account over). Only changed fields are sent. The server keeps only a hash of the
 * API token, so a token is shown once, right after it is saved.
 */
export function ProfileScreen() {
  const { user, updateUser } = useAuth();
  const [username, setUsername] = useState(user?.username ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [apiToken, setApiToken] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [error, setError] = useState('');
  const [savedToken, setSavedToken] = useState<string | null>(null);
  const [notice, showNotice, clearNotice] = useNotice();
  const update = trpc.auth.updateProfile.useMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError('');
    const changes: ProfileUpdateInput = {};
    const trimmed = username.trim();
    if (!trimmed) { setError('Username is required'); return; }
    if (trimmed !== user?.username) {
      const checked = usernameSchema.safeParse(trimmed);
      if (!checked.success) { setError(checked.error.issues[0].message); return; }
      changes.username = trimmed;
    }
    if (password) {
      if (password !== confirm) { setError('Passwords do not match'); return; }
      changes.password = password;
    }
    if (apiToken) {
      const checked = apiTokenSchema.safeParse(apiToken);
      if (!checked.success) { setError(checked.error.issues[0].message); return; }
      changes.apiToken = apiToken;
    }
    if (Object.keys(changes).length === 0) { setError('No changes to save'); return; }
    if (!currentPassword) { setError('Enter your current password to save changes'); return; }
    try {
      const updated = await update.mutateAsync({ ...changes, currentPassword });
      updateUser(updated);
      setUsername(updated.username);
      setPassword('');
      setConfirm('');
      setCurrentPassword('');
      if (changes.apiToken) setSavedToken(changes.apiToken);
      setApiToken('');
      showNotice('Profile updated successfully');
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to update profile. Please try again.'));
    }
  }

  async function removeToken() {
    setError('');
    if (!currentPassword) { setError('Enter your current password to remove the API token'); return; }
    try {
      updateUser(await update.mutateAsync({ apiToken: null, currentPassword }));
      setCurrentPassword('');
      setSavedToken(null);
      showNotice('API token removed');
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to update profile. Please try again.'));
    }
  }

  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h1" gutterBottom>
        Update Profile
      </Typography>
      <Paper component="form" onSubmit={submit} sx={{ p: { xs: 2, sm: 3 } }} noValidate>
        <Stack spacing={2.5}>
          <TextField
            label="Username"
            name="username"
            autoComplete="username"
            required
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
          <TextField
            label="New Password"
            name="new-password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              if (!e.target.value) setConfirm('');
            }}
            helperText="Leave empty to keep your current password"
          />
          <TextField
            label="Confirm Password"
            name="confirm-password"
            type="password"
            autoComplete="new-password"
            value={confirm}
            disabled={!password}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <Box>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'flex-start' }}>
              <TextField
                label="API Token"
                name="api-token"
                autoComplete="off"
                fullWidth
                value={apiToken}
                onChange={(e) => setApiToken(e.target.value)}
                helperText={
                  user?.apiTokenSet
                    ? `A token is set (since ${formatDateTime(user.apiTokenCreatedAt)}). Saving a new one replaces it.`
                    : 'No API token is set. Generate one to use the REST API from scripts.'
                }
                slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
              />
              <Button variant="outlined" onClick={() => setApiToken(generateApiToken())} sx={{ flexShrink: 0, mt: { sm: '2px' } }}>
                Generate
              </Button>
            </Stack>
            {user?.apiTokenSet && (
              <Button size="small" color="error" onClick={() => void removeToken()} sx={{ mt: 1 }} disabled={update.isPending}>
                Remove API token
              </Button>
            )}
          </Box>
          {savedToken && (
            <Alert severity="info" onClose={() => setSavedToken(null)}>
              <Typography variant="body2" gutterBottom>
                Your API token is saved. Copy it now: it will not be shown again.
              </Typography>
              <TextField
                value={savedToken}
                fullWidth
                slotProps={{
                  htmlInput: { readOnly: true, 'aria-label': 'Saved API token', style: { fontFamily: 'monospace' } },
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">
                        <Tooltip title="Copy">
                          <IconButton aria-label="Copy API token" onClick={() => void navigator.clipboard?.writeText(savedToken)}>
                            <ContentCopyIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      </InputAdornment>
                    ),
                  },
                }}
              />
            </Alert>
          )}
          <TextField
            label="Current password"
            name="current-password"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.target.value)}
            helperText="Required to save any change"
          />
          {error && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <Box>
            <Button type="submit" variant="contained" disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </Box>
        </Stack>
      </Paper>
      <DataSection />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}
