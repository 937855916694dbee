import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config/config';

describe('backup and restore settings', () => {
  it('has no scheduled backups by default, a 24h interval, 7 kept and a 100 MB restore limit', () => {
    expect(loadConfig({})).toMatchObject({
      backupDir: undefined,
      backupIntervalSeconds: 86400,
      backupKeep: 7,
      restoreLimitBytes: 100 * 1024 * 1024,
    });
  });

  it.each([
    [{ BACKUP_DIR: 'backups' }, 'backupDir', path.resolve('backups')],
    [{ BACKUP_INTERVAL: '6h' }, 'backupIntervalSeconds', 6 * 3600],
    [{ BACKUP_INTERVAL: '2d' }, 'backupIntervalSeconds', 2 * 86400],
    [{ BACKUP_KEEP: '30' }, 'backupKeep', 30],
    [{ RESTORE_LIMIT_BYTES: '5000000' }, 'restoreLimitBytes', 5_000_000],
  ])('reads %j', (env, key, expected) => {
    expect(loadConfig(env)[key as keyof ReturnType<typeof loadConfig>]).toEqual(expected);
  });

  it.each([
    [{ BACKUP_INTERVAL: 'daily' }, /^BACKUP_INTERVAL:/],
    [{ BACKUP_INTERVAL: '0' }, /^BACKUP_INTERVAL: must be longer than 0 seconds/],
    [{ BACKUP_KEEP: '0' }, /^BACKUP_KEEP: must be at least 1/],
    [{ RESTORE_LIMIT_BYTES: 'lots' }, /^RESTORE_LIMIT_BYTES:/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as ConfigError).problems.join('\n')).toMatch(message);
    }
  });
});
