import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadDotEnv } from '../../src/server/config/config';

describe('loadConfig', () => {
  it('starts with no configuration at all', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('data'),
      databaseFile: path.resolve('data/budget-tracker.sqlite'),
      allowRegistration: true,
      accessTokenTtlSeconds: 900,
      refreshTokenTtlSeconds: 30 * 86400,
      uploadLimitBytes: 10 * 1024 * 1024,
    });
    expect(config.jwtSecret).toBeUndefined();
  });

  it.each([
    [{ ACCESS_TOKEN_TTL: '90' }, 'accessTokenTtlSeconds', 90],
    [{ ACCESS_TOKEN_TTL: '15m' }, 'accessTokenTtlSeconds', 900],
    [{ REFRESH_TOKEN_TTL: '7d' }, 'refreshTokenTtlSeconds', 7 * 86400],
    [{ LOGIN_WINDOW: '2h' }, 'loginWindowSeconds', 7200],
    [{ ALLOW_REGISTRATION: 'false' }, 'allowRegistration', false],
    [{ ALLOW_REGISTRATION: '0' }, 'allowRegistration', false],
    [{ PORT: '8080' }, 'port', 8080],
    [{ PORT: '' }, 'port', 3000],
    [{ DATA_DIR: '/srv/budget' }, 'databaseFile', '/srv/budget/budget-tracker.sqlite'],
    [{}, 'trustProxy', false],
    [{ TRUST_PROXY: 'false' }, 'trustProxy', false],
    [{ TRUST_PROXY: '0' }, 'trustProxy', false],
    [{ TRUST_PROXY: 'true' }, 'trustProxy', 1],
    [{ TRUST_PROXY: '2' }, 'trustProxy', 2],
    [{ TRUST_PROXY: '10.0.0.1' }, 'trustProxy', ['10.0.0.1']],
    [{ TRUST_PROXY: '10.0.0.0/8, ::1, loopback' }, 'trustProxy', ['10.0.0.0/8', '::1', 'loopback']],
    [{}, 'loginAddressMaxFailures', 50],
    [{ LOGIN_ADDRESS_MAX_FAILURES: '20' }, 'loginAddressMaxFailures', 20],
    [{}, 'apiTokenRateLimit', 600],
    [{ API_TOKEN_RATE_LIMIT: '60' }, 'apiTokenRateLimit', 60],
  ])('reads %j', (env, key, expected) => {
    expect(loadConfig(env)[key as keyof ReturnType<typeof loadConfig>]).toEqual(expected);
  });

  it.each([
    [{}, 14],
    [{ PASSWORD_HASH_COST: '' }, 14],
    [{ PASSWORD_HASH_COST: '10' }, 10],
    [{ PASSWORD_HASH_COST: '12' }, 12],
    [{ PASSWORD_HASH_COST: '20' }, 20],
  ])('reads PASSWORD_HASH_COST from %j', (env, expected) => {
    expect(loadConfig(env).passwordHashCost).toBe(expected);
  });

  it.each(['9', '21', '12.5', 'high', '-14'])('refuses PASSWORD_HASH_COST=%s, naming it', (value) => {
    expect(() => loadConfig({ PASSWORD_HASH_COST: value })).toThrow(ConfigError);
    expect(() => loadConfig({ PASSWORD_HASH_COST: value })).toThrow(/^ {2}- PASSWORD_HASH_COST: /m);
  });

  it.each(['everyone', '10.0.0.1/33', '999.1.1.1', '10.0.0.1,,nope', '-1'])('refuses TRUST_PROXY=%s', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });

  it('lists every bad value at once', () => {
    try {
      loadConfig({ PORT: 'eighty', ALLOW_REGISTRATION: 'maybe', JWT_SECRET: 'short', ACCESS_TOKEN_TTL: '0' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/^PORT:/m);
      expect(problems).toMatch(/^ALLOW_REGISTRATION:/m);
      expect(problems).toMatch(/^JWT_SECRET: must be at least 32 characters/m);
      expect(problems).toMatch(/^ACCESS_TOKEN_TTL:/m);
    }
  });
});

describe('loadDotEnv', () => {
  it('reads a .env file without overriding variables already set, and is a no-op without one', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bt-env-'));
    const file = path.join(dir, '.env');
    writeFileSync(file, 'BT_TEST_FROM_FILE=file\nBT_TEST_SET_BOTH=file\n');
    process.env.BT_TEST_SET_BOTH = 'environment';
    try {
      expect(loadDotEnv(path.join(dir, 'missing.env'))).toBe(false);
      expect(process.env.BT_TEST_FROM_FILE).toBeUndefined();
      expect(loadDotEnv(file)).toBe(true);
      expect(process.env.BT_TEST_FROM_FILE).toBe('file');
      expect(process.env.BT_TEST_SET_BOTH).toBe('environment');
    } finally {
      delete process.env.BT_TEST_FROM_FILE;
      delete process.env.BT_TEST_SET_BOTH;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
