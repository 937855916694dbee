/**
 * A labelled household ledger for the suggestion benchmark, generated deterministically from a
 * seed: merchants with their true category, written the messy ways banks write them (several
 * spellings per merchant, payment prefixes, store numbers, card masks, dates, reference codes,
 * city and state tails, truncation to 22 characters, letter case, accents), and a few merchants
 * whose category depends on what was bought (a marketplace, a big-box store, a payment app).
 */
import { addDays } from '../src/shared/dates/calendar';

export interface LabelledRow {
  postDate: string;
  description: string;
  /** Integer cents. */
  amount: number;
  category: string;
  /** The true merchant (for "merchant appeared before"). */
  merchant: string;
}

interface Merchant {
  id: string;
  /** How banks spell it (one picked per row; the first most often). */
  spellings: string[];
  /** Category and typical amount in cents (negative = money out); several for a mixed merchant. */
  buys: { category: string; amount: number; weight: number }[];
  /** Rows a month on average. */
  perMonth: number;
  /** Card descriptors get store numbers, cities and prefixes; direct debits and transfers do not. */
  kind: 'card' | 'debit' | 'credit' | 'online';
  cities?: string[];
}

const CITIES = ['SPRINGFIELD IL', 'SHELBYVILLE IL', 'CAPITAL CITY IL', 'NEW YORK NY', 'OGDENVILLE IL', 'CHICAGO IL'];

const BASE: Merchant[] = [
  {
    id: 'green-basket',
    spellings: ['GREEN BASKET', 'GREEN BASKET MKT', 'GREENBASKET'],
    buys: [{ category: 'Groceries', amount: -6500, weight: 1 }],
    perMonth: 8,
    kind: 'card',
  },
  {
    id: 'fresh-fields',
    spellings: ['FRESH FIELDS MARKET', 'FRESHFIELDS MKT'],
    buys: [{ category: 'Groceries', amount: -4200, weight: 1 }],
    perMonth: 4,
    kind: 'card',
  },
  {
    id: 'aldo',
    spellings: ['ALDO FOODS', 'ALDO FOOD STORES'],
    buys: [{ category: 'Groceries', amount: -3800, weight: 1 }],
    perMonth: 3,
    kind: 'card',
  },
  {
    id: 'kwik',
    spellings: ['KWIK-E-MART', 'KWIK E MART'],
    buys: [{ category: 'Groceries', amount: -1200, weight: 1 }],
    perMonth: 3,
    kind: 'card',
  },
  {
    id: 'bakery',
    spellings: ['LA BOULANGERIE', 'BOULANGERIE'],
    buys: [{ category: 'Groceries', amount: -900, weight: 1 }],
    perMonth: 2,
    kind: 'card',
  },
  {
    id: 'butcher',
    spellings: ['MÜLLER BUTCHERS', 'MULLER BUTCHERS'],
    buys: [{ category: 'Groceries', amount: -2400, weight: 1 }],
    perMonth: 1,
    kind: 'card',
  },
  {
    id: 'shell',
    spellings: ['SHELL OIL', 'SHELL SERVICE STATION'],
    buys: [{ category: 'Fuel', amount: -5200, weight: 1 }],
    perMonth: 3,
    kind: 'card',
  },
  {
    id: 'chevron',
    spellings: ['CHEVRON', 'CHEVRON STATION'],
    buys: [{ category: 'Fuel', amount: -4800, weight: 1 }],
    perMonth: 1.5,
    kind: 'card',
  },
  {
    id: 'bluebottle',
    spellings: ['SQ *BLUE BOTTLE COFFEE', 'BLUE BOTTLE COFFEE'],
    buys: [{ category: 'Coffee', amount: -550, weight: 1 }],
    perMonth: 10,
    kind: 'card',
  },
  {
    id: 'starbucks',
    spellings: ['STARBUCKS', 'STARBUCKS STORE'],
    buys: [{ category: 'Coffee', amount: -640, weight: 1 }],
    perMonth: 5,
    kind: 'card',
  },
  {
    id: 'cafe',
    spellings: ['CAFÉ DE FLORE', 'CAFE DE FLORE'],
    buys: [{ category: 'Coffee', amount: -700, weight: 1 }],
    perMonth: 1,
    kind: 'card',
  },
  {
    id: 'joes',
    spellings: ['TST* JOES DINER', 'JOES DINER'],
    buys: [{ category: 'Dining', amount: -3400, weight: 1 }],
    perMonth: 2,
    kind: 'card',
  },
  {
    id: 'pizza',
    spellings: ['LUIGIS PIZZA', "LUIGI'S PIZZERIA"],
    buys: [{ category: 'Dining', amount: -2800, weight: 1 }],
    perMonth: 2,
    kind: 'card',
  },
  {
    id: 'sushi',
    spellings: ['SUSHI ZEN', 'SQ *SUSHI ZEN'],
    buys: [{ category: 'Dining', amount: -4600, weight: 1 }],
    perMonth: 1,
    kind: 'card',
  },
  {
    id: 'burger',
    spellings: ["MCDONALD'S", 'MCDONALDS'],
    buys: [{ category: 'Dining', amount: -1100, weight: 1 }],
    perMonth: 2,
    kind: 'card',
  },
  {
    id: 'thai',
    spellings: ['THAI ORCHID RESTAURANT', 'THAI ORCHID'],
    buys: [{ category: 'Dining', amount: -3900, weight: 1 }],
    perMonth: 0.7,
    kind: 'card',
  },
  {
    id: 'netflix',
    spellings: ['NETFLIX.COM', 'PAYPAL *NETFLIX'],
    buys: [{ category: 'Subscriptions', amount: -1549, weight: 1 }],
    perMonth: 1,
    kind: 'online',
  },
  {
    id: 'spotify',
    spellings: ['SPOTIFY', 'WWW.SPOTIFY.COM'],
    buys: [{ category: 'Subscriptions', amount: -1099, weight: 1 }],
    perMonth: 1,
    kind: 'online',
  },
  {
    id: 'gym',
    spellings: ['IRONWORKS GYM', 'IRONWORKS FITNESS'],
    buys: [{ category: 'Health', amount: -4500, weight: 1 }],
    perMonth: 1,
    kind: 'debit',
  },
  {
    id: 'pharmacy',
    spellings: ['CVS PHARMACY', 'CVS/PHARMACY'],
    buys: [{ category: 'Health', amount: -2300, weight: 1 }],
    perMonth: 1.5,
    kind: 'card',
  },
  {
    id: 'dentist',
    spellings: ['BRIGHT SMILE DENTAL'],
    buys: [{ category: 'Health', amount: -12000, weight: 1 }],
    perMonth: 0.25,
    kind: 'card',
  },
  {
    id: 'power',
    spellings: ['DIRECT DEBIT SPRINGFIELD POWER', 'SPRINGFIELD POWER CO'],
    buys: [{ category: 'Utilities', amount: -9800, weight: 1 }],
    perMonth: 1,
    kind: 'debit',
  },
  {
    id: 'water',
    spellings: ['CITY WATER DEPT', 'CITY WATER'],
    buys: [{ category: 'Utilities', amount: -4100, weight: 1 }],
    perMonth: 1,
    kind: 'debit',
  },
  {
    id: 'phone',
    spellings: ['VERIZON WIRELESS', 'VZWRLSS*APOCC'],
    buys: [{ category: 'Phone', amount: -7500, weight: 1 }],
    perMonth: 1,
    kind: 'debit',
  },
  {
    id: 'internet',
    spellings: ['COMCAST CABLE', 'COMCAST'],
    buys: [{ category: 'Utilities', amount: -6999, weight: 1 }],
    perMonth: 1,
    kind: 'debit',
  },
  {
    id: 'rent',
    spellings: ['RENT PAYMENT EVERGREEN PROPERTIES', 'EVERGREEN PROPERTIES'],
    buys: [{ category: 'Rent', amount: -185000, weight: 1 }],
    perMonth: 1,
    kind: 'debit',
  },
  {
    id: 'insurance',
    spellings: ['STATE MUTUAL INSURANCE', 'STATE MUTUAL INS'],
    buys: [{ category: 'Insurance', amount: -11200, weight: 1 }],
    perMonth: 1,
    kind: 'debit',
  },
  {
    id: 'salary',
    spellings: ['ACME CORP PAYROLL', 'ACME CORP SALARY'],
    buys: [{ category: 'Salary', amount: 412000, weight: 1 }],
    perMonth: 2,
    kind: 'credit',
  },
  {
    id: 'salary2',
    spellings: ['GLOBEX PAYROLL'],
    buys: [{ category: 'Salary', amount: 265000, weight: 1 }],
    perMonth: 1,
    kind: 'credit',
  },
  {
    id: 'interest',
    spellings: ['INTEREST PAYMENT', 'INTEREST PAID'],
    buys: [{ category: 'Interest', amount: 350, weight: 1 }],
    perMonth: 1,
    kind: 'credit',
  },
  {
    id: 'transit',
    spellings: ['METRO TRANSIT', 'METRO TRANSIT FARE'],
    buys: [{ category: 'Transport', amount: -275, weight: 1 }],
    perMonth: 6,
    kind: 'card',
  },
  {
    id: 'uber',
    spellings: ['UBER *TRIP', 'UBER TRIP HELP.UBER.COM'],
    buys: [{ category: 'Transport', amount: -1800, weight: 1 }],
    perMonth: 2,
    kind: 'online',
  },
  {
    id: 'petshop',
    spellings: ['PAWS AND CLAWS PET SUPPLY', 'PAWS CLAWS PET'],
    buys: [{ category: 'Pets', amount: -3600, weight: 1 }],
    perMonth: 1,
    kind: 'card',
  },
  {
    id: 'vet',
    spellings: ['SPRINGFIELD VETERINARY CLINIC'],
    buys: [{ category: 'Pets', amount: -9500, weight: 1 }],
    perMonth: 0.3,
    kind: 'card',
  },
  {
    id: 'cinema',
    spellings: ['AZTEC THEATER', 'AZTEC THEATRE'],
    buys: [{ category: 'Fun', amount: -2600, weight: 1 }],
    perMonth: 1,
    kind: 'card',
  },
  {
    id: 'books',
    spellings: ['BOOKWORM BOOKS', 'THE BOOKWORM'],
    buys: [{ category: 'Books', amount: -2200, weight: 1 }],
    perMonth: 0.7,
    kind: 'card',
  },
  {
    id: 'hardware',
    spellings: ['HOME DEPOT', 'THE HOME DEPOT'],
    buys: [{ category: 'Household', amount: -5400, weight: 1 }],
    perMonth: 1,
    kind: 'card',
  },
  {
    id: 'ikea',
    spellings: ['IKEA', 'IKEA US'],
    buys: [{ category: 'Household', amount: -8900, weight: 1 }],
    perMonth: 0.4,
    kind: 'card',
  },
  {
    id: 'savings',
    spellings: ['TRANSFER TO SAVINGS', 'ONLINE TRANSFER TO SAV'],
    buys: [{ category: 'Savings', amount: -50000, weight: 1 }],
    perMonth: 1,
    kind: 'debit',
  },
  {
    id: 'cardpay',
    spellings: ['CREDIT CARD PAYMENT THANK YOU', 'PAYMENT THANK YOU'],
    buys: [{ category: 'Card payment', amount: -120000, weight: 1 }],
    perMonth: 1,
    kind: 'debit',
  },
  {
    id: 'charity',
    spellings: ['RED CROSS DONATION'],
    buys: [{ category: 'Gifts', amount: -2500, weight: 1 }],
    perMonth: 0.3,
    kind: 'online',
  },
  {
    id: 'airline',
    spellings: ['UNITED AIRLINES', 'UNITED AIR'],
    buys: [{ category: 'Travel', amount: -42000, weight: 1 }],
    perMonth: 0.25,
    kind: 'online',
  },
  {
    id: 'hotel',
    spellings: ['MARRIOTT HOTELS', 'MARRIOTT'],
    buys: [{ category: 'Travel', amount: -31000, weight: 1 }],
    perMonth: 0.25,
    kind: 'card',
  },
  // Mixed: the category depends on what was bought.
  {
    id: 'amazon',
    spellings: ['AMAZON MKTPLACE PMTS', 'AMZN MKTP US', 'AMAZON.COM'],
    buys: [
      { category: 'Household', amount: -2600, weight: 5 },
      { category: 'Electronics', amount: -45000, weight: 1 },
      { category: 'Books', amount: -1500, weight: 1 },
    ],
    perMonth: 4,
    kind: 'online',
  },
  {
    id: 'target',
    spellings: ['TARGET', 'TARGET T-1234'],
    buys: [
      { category: 'Groceries', amount: -5500, weight: 3 },
      { category: 'Household', amount: -3000, weight: 2 },
    ],
    perMonth: 2,
    kind: 'card',
  },
  {
    id: 'venmo',
    spellings: ['VENMO PAYMENT', 'VENMO'],
    buys: [
      { category: 'Dining', amount: -2000, weight: 2 },
      { category: 'Gifts', amount: -5000, weight: 1 },
    ],
    perMonth: 1.5,
    kind: 'online',
  },
];

/** A small deterministic generator (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)];
}

function digits(rand: () => number, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += String(Math.floor(rand() * 10));
  return out;
}

/** One bank's way of writing a merchant on one row. */
function messy(rand: () => number, merchant: Merchant, date: string): string {
  const spelling = rand() < 0.6 ? merchant.spellings[0] : pick(rand, merchant.spellings);
  const mmdd = `${date.slice(5, 7)}/${date.slice(8, 10)}`;
  let text: string;
  if (merchant.kind === 'card') {
    const store = rand() < 0.6 ? ` #${digits(rand, 4)}` : rand() < 0.5 ? ` ${digits(rand, 5)}` : '';
    const city = rand() < 0.6 ? ` ${pick(rand, merchant.cities ?? CITIES)}` : '';
    const prefix = pick(rand, [
      '',
      '',
      'POS ',
      'POS PURCHASE ',
      'DEBIT CARD PURCHASE - ',
      'CHECKCARD ',
      'CONTACTLESS ',
    ]);
    const suffix = pick(rand, ['', '', ` ${mmdd}`, ` CARD XXXX${digits(rand, 4)}`, ` ${mmdd} ${digits(rand, 6)}`]);
    text = `${prefix}${spelling}${store}${city}${suffix}`;
    if (rand() < 0.15) text = text.slice(0, 22).trim();
  } else if (merchant.kind === 'online') {
    text = `${spelling}${rand() < 0.5 ? `*${digits(rand, 2)}${pick(rand, ['AB', 'K7', 'ZQ', 'M2'])}${digits(rand, 3)}` : ''}${rand() < 0.4 ? ` ${pick(rand, ['SEATTLE WA', 'LOS GATOS CA', 'SAN FRANCISCO CA', 'AMSTERDAM NL'])}` : ''}`;
  } else {
    text = `${spelling}${rand() < 0.7 ? ` REF ${digits(rand, 8)}` : ''}${rand() < 0.5 ? ` ${mmdd}` : ''}`;
  }
  const casing = rand();
  if (casing < 0.15) return text.toLowerCase();
  if (casing < 0.3) return text.replace(/\w\S*/g, (word) => word[0] + word.slice(1).toLowerCase());
  return text;
}

/** `months` months of one household from `start`, oldest first. `scale` multiplies how often merchants come. */
export function householdLedger(
  seed: number,
  start: string,
  months: number,
  scale = 1,
  extraMerchants = 0,
): LabelledRow[] {
  const rand = random(seed);
  const merchants: Merchant[] = [...BASE];
  // More merchants for a larger history (the 100,000-row timing set): same shapes, other names.
  const words = [
    'NORTH',
    'OAK',
    'RIVER',
    'SUN',
    'MAPLE',
    'STONE',
    'LAKE',
    'PINE',
    'CEDAR',
    'BRIGHT',
    'GOLD',
    'SILVER',
    'HILL',
    'BAY',
  ];
  const kinds = ['SHOP', 'MARKET', 'DELI', 'GRILL', 'STUDIO', 'SUPPLY', 'OUTLET', 'BISTRO', 'GARAGE', 'SALON'];
  const categories = ['Groceries', 'Dining', 'Fun', 'Household', 'Health', 'Transport', 'Gifts', 'Clothes', 'Hobbies'];
  for (let i = 0; i < extraMerchants; i++) {
    const name = `${words[i % words.length]} ${words[Math.floor(i / words.length) % words.length]} ${kinds[i % kinds.length]}`;
    merchants.push({
      id: `extra-${i}`,
      spellings: [name, name.replace(' ', '')],
      buys: [{ category: categories[i % categories.length], amount: -(500 + Math.floor(rand() * 20000)), weight: 1 }],
      perMonth: 0.3 + rand() * 2,
      kind: 'card',
    });
  }
  const rows: LabelledRow[] = [];
  const days = months * 30.44;
  for (const merchant of merchants) {
    const expected = merchant.perMonth * months * scale;
    const count = Math.max(1, Math.round(expected * (0.8 + rand() * 0.4)));
    for (let i = 0; i < count; i++) {
      const date = addDays(start, Math.floor(rand() * days));
      const total = merchant.buys.reduce((sum, b) => sum + b.weight, 0);
      let roll = rand() * total;
      const buy = merchant.buys.find((b) => (roll -= b.weight) < 0) ?? merchant.buys[0];
      const amount = Math.round(buy.amount * Math.exp((rand() - 0.5) * 0.6));
      rows.push({
        postDate: date,
        description: messy(rand, merchant, date),
        amount: amount === 0 ? -1 : amount,
        category: buy.category,
        merchant: merchant.id,
      });
    }
  }
  return rows.sort((a, b) => (a.postDate < b.postDate ? -1 : a.postDate > b.postDate ? 1 : 0));
}
