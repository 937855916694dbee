import { describe, expect, it } from 'vitest';
import { generateApiToken, profileChanges, type ProfileForm } from '../../src/client/features/profile/profile-helpers';

const TOKEN = generateApiToken();
const form = (patch: Partial<ProfileForm> = {}): ProfileForm => ({
  username: 'alice',
  password: '',
  confirm: '',
  apiToken: '',
  currentPassword: 'secret',
  ...patch,
});

describe('Update Profile: only what changed is sent, and nothing without the current password', () => {
  it.each<[string, ProfileForm, ReturnType<typeof profileChanges>]>([
    ['nothing changed', form(), { ok: false, message: 'No changes to save' }],
    ['a blank username', form({ username: '   ' }), { ok: false, message: 'Username is required' }],
    ['the same username, trimmed', form({ username: ' alice ' }), { ok: false, message: 'No changes to save' }],
    ['a new username', form({ username: ' bob ' }), { ok: true, changes: { username: 'bob' } }],
    [
      'passwords that differ',
      form({ password: 'new-password-1', confirm: 'new-password-2' }),
      { ok: false, message: 'Passwords do not match' },
    ],
    [
      'a new password',
      form({ password: 'new-password-1', confirm: 'new-password-1' }),
      { ok: true, changes: { password: 'new-password-1' } },
    ],
    ['a new API token', form({ apiToken: TOKEN }), { ok: true, changes: { apiToken: TOKEN } }],
    [
      'a change without the current password',
      form({ username: 'bob', currentPassword: '' }),
      { ok: false, message: 'Enter your current password to save changes' },
    ],
  ])('%s', (_name, input, expected) => expect(profileChanges(input, 'alice')).toEqual(expected));

  it('names what is wrong with a username or a token the server would refuse', () => {
    expect(profileChanges(form({ username: 'x'.repeat(1000) }), 'alice').ok).toBe(false);
    expect(profileChanges(form({ apiToken: 'short' }), 'alice')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^API token must be at least/),
    });
    expect(profileChanges(form({ apiToken: 'a.b.c'.padEnd(40, 'x') }), 'alice')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/two dots/),
    });
  });
});
