/**
 * A person-readable name for a User-Agent header ("Firefox on Linux"), for the list of sign-ins. Plain substring
 * checks, most specific first: browsers name their engines' ancestors too (Edge says Chrome and Safari).
 */
const BROWSERS: readonly [string, string][] = [
  ['Edg/', 'Edge'],
  ['OPR/', 'Opera'],
  ['SamsungBrowser/', 'Samsung Internet'],
  ['Firefox/', 'Firefox'],
  ['FxiOS/', 'Firefox'],
  ['CriOS/', 'Chrome'],
  ['Chrome/', 'Chrome'],
  ['Safari/', 'Safari'],
  ['curl/', 'curl'],
  ['python', 'Python script'],
  ['node', 'Node.js script'],
];

const SYSTEMS: readonly [string, string][] = [
  ['iPhone', 'iPhone'],
  ['iPad', 'iPad'],
  ['Android', 'Android'],
  ['Windows', 'Windows'],
  ['Mac OS X', 'macOS'],
  ['CrOS', 'ChromeOS'],
  ['Linux', 'Linux'],
];

function first(userAgent: string, table: readonly [string, string][]): string | undefined {
  const lower = userAgent.toLowerCase();
  return table.find(([needle]) => lower.includes(needle.toLowerCase()))?.[1];
}

export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const browser = first(userAgent, BROWSERS);
  const system = first(userAgent, SYSTEMS);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}
