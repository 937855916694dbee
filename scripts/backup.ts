/**
 * `npm run backup -- <file>`: a consistent copy of the app's SQLite database (the same
 * DATA_DIR / DATABASE_FILE configuration as the server) through SQLite's online backup API.
 * Safe while the server runs. Without a file, writes a timestamped backup into BACKUP_DIR and
 * keeps the BACKUP_KEEP newest there. See "Backup, restore and upgrade" in README.md. With DATABASE_URL set
 * (PostgreSQL) it refuses: pg_dump backs that up.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, loadDotEnv } from '../src/server/config/config';
import { backupDatabase, backupIntoFolder, BackupError, type BackupResult } from '../src/server/db/backup';

const USAGE = `Usage: npm run backup -- [file] [--pages-per-step N]

Copies the database (DATA_DIR / DATABASE_FILE) to <file> with SQLite's online backup API,
consistently, even while the server runs; refuses to overwrite an existing file.
Without <file>, writes budget-tracker-<time>.sqlite into BACKUP_DIR and keeps the BACKUP_KEEP newest.

  --pages-per-step N   4 KB pages copied per step (default 1000)
  -h, --help           show this help`;

async function main(): Promise<number> {
  loadDotEnv();
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      options: { 'pages-per-step': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const pagesPerStep = values['pages-per-step'] === undefined ? undefined : Number(values['pages-per-step']);
  if (pagesPerStep !== undefined && !(Number.isInteger(pagesPerStep) && pagesPerStep > 0)) {
    console.error(`--pages-per-step must be a whole number above 0\n\n${USAGE}`);
    return 2;
  }
  if (positionals.length > 1) {
    console.error(`One file at most\n\n${USAGE}`);
    return 2;
  }
  try {
    const config = loadConfig();
    if (config.databaseUrl) {
      console.error(
        'DATABASE_URL is set: the app runs on PostgreSQL, and this command copies SQLite files only. Back up PostgreSQL with pg_dump (README, "Backup, restore and upgrade").',
      );
      return 2;
    }
    const file = positionals[0];
    if (!file && !config.backupDir) {
      console.error(`Name the backup file, or set BACKUP_DIR\n\n${USAGE}`);
      return 2;
    }
    const result: BackupResult & { pruned?: string[] } = file
      ? await backupDatabase(config.databaseFile, path.resolve(file), { pagesPerStep })
      : await backupIntoFolder(config.databaseFile, config.backupDir!, config.backupKeep, new Date(), { pagesPerStep });
    console.log(
      `Backed up ${config.databaseFile} to ${result.file}: ${(result.bytes / 1024 / 1024).toFixed(1)} MB in ${(result.milliseconds / 1000).toFixed(1)} s` +
        `${result.restarts ? ` (restarted ${result.restarts} times by concurrent writes)` : ''}; integrity check ok.`,
    );
    if (result.pruned?.length)
      console.log(`Removed ${result.pruned.length} older backup(s) beyond BACKUP_KEEP=${config.backupKeep}.`);
    return 0;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    console.error('The backup failed:', error);
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
