import { ormOptions } from './src/server/db/orm-options';

export { ormOptions };

// For the MikroORM CLI (it awaits a promised configuration): DATABASE_URL (PostgreSQL) when set, else the default SQLite data file.
export default ormOptions(
  process.env.DATABASE_URL
    ? { dialect: 'postgresql', url: process.env.DATABASE_URL }
    : { dialect: 'sqlite', file: process.env.DATABASE_FILE ?? 'data/budget-tracker.sqlite' },
);
