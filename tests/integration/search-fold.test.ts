import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldText } from '../../src/shared/text/fold';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * The description search folds case the same way on both databases (this file runs on SQLite
 * and on PostgreSQL): accents kept, any letter case, composed or decomposed. Each expectation is
 * what JavaScript's fold (foldText) finds over the same rows.
 */
const DESCRIPTIONS = [
  'Café Crème',
  'CAFÉ DU MONDE',
  'Cafe\u0301 decomposed',
  'cafe plain',
  'ÉCOLE Primaire',
  'Straße Parking',
  'ΣΟΦΊΑ Market',
  'Ñandú Imports',
  'ÅLAND FERRY',
  'Œuvre Gallery',
  'İstanbul Kebab',
  'Dž Ligature',
];
const NEEDLES = [
  'café',
  'CAFÉ',
  'cafe',
  'Cafe\u0301',
  'école',
  'STRASSE',
  'straße',
  'σοφία',
  'ñandú',
  'åland',
  'œuvre',
  'i̇stanbul',
  'ǆ',
  'zzz',
];

let server: TestServer;
let user: ApiUser;
beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Main', type: 'checking' }));
  for (const description of DESCRIPTIONS)
    ok(await user.post('/api/transactions', { postDate: '2024-05-01', description, amount: -100, account: 'Main' }));
});
afterAll(async () => {
  await server.close();
});

describe('description search', () => {
  it.each(NEEDLES)('finds the same rows for %s as the JavaScript fold', async (needle) => {
    const expected = DESCRIPTIONS.filter((d) => foldText(d).includes(foldText(needle))).sort();
    const rows = ok<{ description: string }[]>(
      await user.get(
        `/api/transactions?start_date=2024-05-01&end_date=2024-05-31&description=${encodeURIComponent(needle)}`,
      ),
    );
    expect(rows.map((r) => r.description).sort(), server.database).toEqual(expected);
  });

  it('finds composed and decomposed accents alike, and plain letters only without accents', async () => {
    const find = async (needle: string) =>
      ok<{ description: string }[]>(
        await user.get(
          `/api/transactions?start_date=2024-05-01&end_date=2024-05-31&description=${encodeURIComponent(needle)}`,
        ),
      ).length;
    expect(await find('café')).toBe(3);
    expect(await find('cafe')).toBe(1);
    expect(await find('σοφία')).toBe(1);
  });
});
