import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The token-signing secret: JWT_SECRET when set, otherwise one generated on first
 * start and kept in the data directory, so sessions survive restarts.
 */
export function loadSigningSecret(dataDir: string, configured?: string): string {
  if (configured) return configured;
  // The data folder holds everyone's finances: private to the server's user when we create it.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'w' });
  chmodSync(file, 0o600);
  return secret;
}
