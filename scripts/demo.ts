/**
 * `npm run demo`: creates a demo user with a year of realistic data in the app's database
 * (the same DATA_DIR / DATABASE_FILE configuration as the server). Refuses, changing nothing,
 * when the username already exists. See "Demo data" in README.md.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, loadDotEnv } from '../src/server/config/config';
import {
  DEFAULT_DEMO_PASSWORD,
  DEFAULT_DEMO_USERNAME,
  DemoOptionsError,
  DemoUserExistsError,
  formatSummary,
  runDemo,
} from '../src/server/demo/run-demo';
import { DEFAULT_DEMO_INTENSITY, DEFAULT_DEMO_SEED } from '../src/server/demo/demo-plan';

const USAGE = `Usage: npm run demo [-- options]

Creates a user with twelve months of demo data (accounts, categories, imported CSV batches,
splits, budgets, envelopes) in the database configured by DATA_DIR / DATABASE_FILE.

Options (environment variable in brackets):
  --username NAME    user to create (DEMO_USERNAME, default "${DEFAULT_DEMO_USERNAME}")
  --password TEXT    its password, 8+ characters (DEMO_PASSWORD, default "${DEFAULT_DEMO_PASSWORD}")
  --seed N           random seed (DEMO_SEED, default ${DEFAULT_DEMO_SEED})
  --intensity X      scales everyday purchases (DEMO_INTENSITY, default ${DEFAULT_DEMO_INTENSITY})
  --today YYYY-MM-DD pretend today is this date (DEMO_TODAY, default: today)
  -h, --help         show this help

Exits with 1, changing nothing, when the username already exists (regardless of case).`;

function numberOption(name: string, text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new DemoOptionsError(`${name} must be a number, got '${text}'`);
  return value;
}

async function main(): Promise<number> {
  loadDotEnv();
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        username: { type: 'string' },
        password: { type: 'string' },
        seed: { type: 'string' },
        intensity: { type: 'string' },
        today: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
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
  const env = process.env;
  try {
    const config = loadConfig();
    const summary = await runDemo({
      config,
      username: values.username ?? (env.DEMO_USERNAME || undefined),
      password: values.password ?? (env.DEMO_PASSWORD || undefined),
      seed: numberOption('seed', values.seed ?? env.DEMO_SEED),
      intensity: numberOption('intensity', values.intensity ?? env.DEMO_INTENSITY),
      today: values.today ?? (env.DEMO_TODAY || undefined),
      log: (line) => console.log(line),
    });
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    // The server must be started on the same database to show the demo.
    const location = (['DATA_DIR', 'DATABASE_FILE'] as const)
      .filter((name) => env[name])
      .map(
        (name) => `${name}=${/^[\w./:-]+$/.test(env[name]!) ? env[name] : `'${env[name]!.replace(/'/g, `'\\''`)}'`} `,
      )
      .join('');
    console.log(formatSummary(summary, `http://${host}:${config.port}`, `${location}npm start`));
    return 0;
  } catch (error) {
    if (error instanceof DemoUserExistsError || error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    if (error instanceof DemoOptionsError || error instanceof RangeError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    console.error('The demo failed:', error);
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
