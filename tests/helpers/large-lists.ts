/**
 * "All my data" documents that weigh tens of megabytes in a list other than the transactions: rows as short as the
 * schema allows, so the document holds as many of them as its size allows. Built as text a row at a time (the
 * test's own process never holds the rows as objects).
 */
export const LARGE_LISTS = [
  'transfers',
  'rates',
  'plan',
  'transferCandidates',
  'occurrences',
  'importProfiles',
  'accounts',
  'relatedCategories',
  'longText',
  'shortTransactions',
] as const;
export type LargeList = (typeof LARGE_LISTS)[number];

const CURRENCIES =
  'USD EUR GBP JPY CHF CAD AUD SEK NOK DKK PLN CZK HUF NZD SGD HKD ZAR MXN BRL INR CNY KRW TRY ILS'.split(' ');

function isoDay(n: number): string {
  return new Date(Date.UTC(2000, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
}

function month(n: number): string {
  return `${1900 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
}

/** `count` rows made by `row`, joined, as long as they stay under `bytes`. */
function rows(bytes: number, row: (i: number) => string | null): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; ; i += 1) {
    const text = row(i);
    if (text === null || length + text.length + 1 > bytes) break;
    parts.push(text);
    length += text.length + 1;
  }
  return parts.join(',');
}

/** The document's head and small lists, with `lists` (JSON text of each list) in place of their defaults. */
function documentJson(lists: Record<string, string>): string {
  const list = (name: string, fallback = '') => `"${name}":[${lists[name] ?? fallback}]`;
  return `{"format":"budget-tracker","version":1,${[
    list(
      'accounts',
      '{"id":1,"name":"Checking","type":"checking","balance":0},{"id":2,"name":"Savings","type":"savings","balance":0}',
    ),
    list('categories', Array.from({ length: 20 }, (_, i) => `{"id":${i + 1},"name":"Category ${i + 1}"}`).join(',')),
    list('batches'),
    list(
      'transactions',
      '{"id":1,"postDate":"2024-01-02","description":"Out","amount":-500,"type":"debit","accountId":1,"categoryId":null,"isSplit":false,"parentId":null,"splitNote":null,"batchId":null},' +
        '{"id":2,"postDate":"2024-01-02","description":"In","amount":500,"type":"credit","accountId":2,"categoryId":null,"isSplit":false,"parentId":null,"splitNote":null,"batchId":null}',
    ),
    list('budgets'),
    list('envelopes'),
    ...['importProfiles', 'schedules', 'transfers', 'transferCandidates', 'rates']
      .filter((name) => lists[name] !== undefined)
      .map((name) => list(name)),
  ].join(',')}${lists.plan !== undefined ? `,"plan":${lists.plan}` : ''}}`;
}

/** A document of about `bytes` whose weight is in the list `kind` (see each case for what the server answers). */
export function largeListJson(kind: LargeList, bytes: number): string {
  switch (kind) {
    // Every transfer links the same two transactions: refused (400), once all are read and checked.
    case 'transfers':
      return documentJson({
        transfers: rows(bytes, (i) => `{"id":${i + 1},"transactionIds":[1,2],"origin":"linked"}`),
      });
    // Distinct rates between two dozen currencies: restored (201).
    case 'rates': {
      const pairs = CURRENCIES.flatMap((base) =>
        CURRENCIES.filter((quote) => quote !== base).map((quote) => [base, quote]),
      );
      return documentJson({
        rates: rows(bytes, (i) => {
          const [base, quote] = pairs[i % pairs.length] ?? [];
          return `{"date":"${isoDay(Math.floor(i / pairs.length))}","base":"${base}","quote":"${quote}","rate":"1.5"}`;
        }),
      });
    }
    // The plan's two long lists, each at its limit or the size's half: restored (201).
    case 'plan': {
      const assigned = rows(bytes / 2, (i) =>
        i >= 1_000_000 ? null : `{"categoryId":${(i % 20) + 1},"month":"${month(Math.floor(i / 20))}","amount":${i}}`,
      );
      const moves = rows(bytes / 2, (i) =>
        i >= 1_000_000
          ? null
          : `{"month":"2024-01","fromCategoryId":1,"toCategoryId":2,"amount":${i},"date":"2024-01-02"}`,
      );
      return documentJson({ plan: `{"assigned":[${assigned}],"moves":[${moves}],"holds":[]}` });
    }
    // Offers of the same pair, over and over: restored (201).
    case 'transferCandidates':
      return documentJson({
        transferCandidates: rows(bytes, () => '{"transactionIds":[1,2],"score":50,"reason":"","status":"open"}'),
      });
    // Schedules with the occurrences of a daily one over 50 years each: restored (201) while the lists held as
    // objects stay under their limit, refused (413) past it.
    case 'occurrences': {
      const perSchedule = 18_000;
      const occurrence = (i: number) =>
        `{"scheduledDate":"${isoDay(i - 36_500)}","date":"${isoDay(i - 36_500)}","amount":-1,"status":"missed","transactionId":null}`;
      const one = rows(Number.MAX_SAFE_INTEGER, (i) => (i < perSchedule ? occurrence(i) : null));
      const schedule = (id: number) =>
        `{"id":${id},"name":"S${id}","accountId":1,"description":"Rent","amount":-1,"amountTolerance":0,"categoryId":null,"recurrence":"FREQ=DAILY","weekendRule":"none","mode":"expect","window":3,"startDate":"1900-01-01","end":"never","occurrences":[${one}]}`;
      return documentJson({ schedules: rows(bytes, (i) => (i < 1000 ? schedule(i + 1) : null)) });
    }
    // A list this version refuses whatever it holds (400).
    case 'importProfiles':
      return documentJson({ importProfiles: rows(bytes, () => '0') });
    // Accounts as short as they come.
    case 'accounts':
      return documentJson({
        accounts: rows(bytes, (i) => `{"id":${i + 1},"name":"a${i}","type":"checking","balance":0}`),
      });
    // Transactions as short as they come (a restore keeps an object of facts a row): restored (201).
    case 'shortTransactions':
      return documentJson({
        transactions: rows(
          bytes,
          (i) =>
            `{"id":${i + 1},"postDate":"2024-01-02","description":"a","amount":-5,"type":"debit","accountId":1,"categoryId":null,"isSplit":false,"parentId":null,"splitNote":null,"batchId":null}`,
        ),
      });
    // One transaction whose description is the whole document (refused, 413, before the text is read whole).
    case 'longText':
      return documentJson({
        transactions: `{"id":1,"postDate":"2024-01-02","description":"${'x'.repeat(bytes)}","amount":-500,"type":"debit","accountId":1,"categoryId":null,"isSplit":false,"parentId":null,"splitNote":null,"batchId":null}`,
      });
    // Budgets whose line items each name 500 (empty) categories.
    case 'relatedCategories': {
      const related = Array.from({ length: 500 }, () => '""').join(',');
      const items = Array.from(
        { length: 500 },
        (_, i) => `{"id":ITEM${i},"name":"i","amount":1,"type":"Fixed","relatedCategories":[${related}]}`,
      ).join(',');
      let item = 0;
      return documentJson({
        budgets: rows(bytes, (i) =>
          `{"id":${i + 1},"name":"b${i}","startDate":"2024-01-01","endDate":"2024-12-31","amount":1,"lineItems":[${items}]}`.replace(
            /ITEM\d+/g,
            () => String((item += 1)),
          ),
        ),
      });
    }
  }
}
