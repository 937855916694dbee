/**
 * Operator commands on users, against the configured database (DATA_DIR / DATABASE_FILE or DATABASE_URL, as the
 * server reads them; safe while the server runs).
 *   npm run user -- reset-password NAME [--disable-two-factor]
 * prints a new one-time password for NAME and ends every sign-in of NAME. In the Docker image:
 *   docker exec -it budget node dist/server/user.js reset-password NAME
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, loadDotEnv } from '../src/server/config/config';
import { DatabaseRoleError, openAppDatabase } from '../src/server/db/app-database';
import { StorageError } from '../src/server/db/storage';
import { resetPassword, UnknownUserError } from '../src/server/modules/users/reset-password';

const USAGE = `Usage: npm run user -- reset-password NAME [--disable-two-factor]

reset-password NAME      Sets a new random password for NAME, prints it once, and ends every sign-in of NAME
                         (browsers and scripts signed in with the old password; API tokens keep working).
--disable-two-factor     Also turns two-factor sign-in off (the person lost their authenticator and recovery codes).

Reads the same configuration as the server (.env, DATA_DIR, DATABASE_FILE, DATABASE_URL).`;

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: { 'disable-two-factor': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const [command, username, ...rest] = positionals;
  if (command !== 'reset-password' || !username || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  try {
    loadDotEnv();
    const config = loadConfig();
    const database = await openAppDatabase(config, () => undefined);
    try {
      const result = await resetPassword(database.orm, username, {
        passwordHashCost: config.passwordHashCost,
        disableTwoFactor: values['disable-two-factor'] === true,
      });
      console.log(`New password for ${result.username}: ${result.password}`);
      console.log(
        `Ended ${result.endedSignIns} sign-in(s). Give the password to ${result.username} privately; they should change it on the Profile screen after signing in.${values['disable-two-factor'] ? ' Two-factor sign-in is off.' : ''}`,
      );
      return 0;
    } finally {
      await database.close();
    }
  } catch (error) {
    if (
      error instanceof UnknownUserError ||
      error instanceof ConfigError ||
      error instanceof StorageError ||
      error instanceof DatabaseRoleError
    ) {
      console.error(error.message);
      return 1;
    }
    console.error('The command failed:', error);
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
