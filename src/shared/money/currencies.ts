/**
 * ISO 4217 currencies an account may hold, and each one's minor unit: how many decimals its
 * amounts have. Amounts are stored as integers of that unit (cents for EUR, yen for JPY, fils for
 * BHD). A fixed table rather than Intl: ICU's digits follow cash customs (HUF and IDR without
 * decimals) and differ between runtimes, while stored amounts must mean the same everywhere.
 */

/** Active ISO 4217 codes (funds and precious metals left out). */
// prettier-ignore
export const CURRENCY_CODES = [
  'AED', 'AFN', 'ALL', 'AMD', 'ANG', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN', 'BAM', 'BBD', 'BDT', 'BGN', 'BHD', 'BIF',
  'BMD', 'BND', 'BOB', 'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD', 'CAD', 'CDF', 'CHF', 'CLF', 'CLP', 'CNY', 'COP',
  'CRC', 'CUC', 'CUP', 'CVE', 'CZK', 'DJF', 'DKK', 'DOP', 'DZD', 'EGP', 'ERN', 'ETB', 'EUR', 'FJD', 'FKP', 'GBP',
  'GEL', 'GHS', 'GIP', 'GMD', 'GNF', 'GTQ', 'GYD', 'HKD', 'HNL', 'HTG', 'HUF', 'IDR', 'ILS', 'INR', 'IQD', 'IRR',
  'ISK', 'JMD', 'JOD', 'JPY', 'KES', 'KGS', 'KHR', 'KMF', 'KPW', 'KRW', 'KWD', 'KYD', 'KZT', 'LAK', 'LBP', 'LKR',
  'LRD', 'LSL', 'LYD', 'MAD', 'MDL', 'MGA', 'MKD', 'MMK', 'MNT', 'MOP', 'MRU', 'MUR', 'MVR', 'MWK', 'MXN', 'MYR',
  'MZN', 'NAD', 'NGN', 'NIO', 'NOK', 'NPR', 'NZD', 'OMR', 'PAB', 'PEN', 'PGK', 'PHP', 'PKR', 'PLN', 'PYG', 'QAR',
  'RON', 'RSD', 'RUB', 'RWF', 'SAR', 'SBD', 'SCR', 'SDG', 'SEK', 'SGD', 'SHP', 'SLE', 'SOS', 'SRD', 'SSP', 'STN',
  'SVC', 'SYP', 'SZL', 'THB', 'TJS', 'TMT', 'TND', 'TOP', 'TRY', 'TTD', 'TWD', 'TZS', 'UAH', 'UGX', 'USD', 'UYI',
  'UYU', 'UYW', 'UZS', 'VED', 'VES', 'VND', 'VUV', 'WST', 'XAF', 'XCD', 'XCG', 'XOF', 'XPF', 'YER', 'ZAR', 'ZMW',
  'ZWG',
] as const;

export type CurrencyCode = (typeof CURRENCY_CODES)[number];

/** Codes whose minor unit is not two decimals, from ISO 4217's table. */
// prettier-ignore
const MINOR_UNITS: Partial<Record<CurrencyCode, number>> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0, VND: 0,
  VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
  CLF: 4, UYW: 4,
};

const KNOWN = new Set<string>(CURRENCY_CODES);

/** The currency an instance and its existing accounts start from when nothing else says. */
export const DEFAULT_CURRENCY: CurrencyCode = 'USD';

export function isCurrencyCode(value: string): value is CurrencyCode {
  return KNOWN.has(value);
}

/** Decimals of `currency`'s minor unit: 2 for EUR, 0 for JPY, 3 for BHD. Throws RangeError for an unknown code. */
export function minorUnitsOf(currency: string): number {
  if (!isCurrencyCode(currency)) throw new RangeError(`Unknown currency: ${currency}`);
  return MINOR_UNITS[currency] ?? 2;
}

/**
 * The currency a locale's region uses ("de-CH" -> CHF, "en-GB" -> GBP), for presetting a new user's
 * home currency; DEFAULT_CURRENCY when the locale names no region this table knows.
 */
export function currencyOfLocale(locale: string): CurrencyCode {
  let region: string | undefined;
  try {
    region = new Intl.Locale(locale).maximize().region;
  } catch {
    return DEFAULT_CURRENCY;
  }
  const found = region === undefined ? undefined : REGION_CURRENCY[region];
  return found ?? (region !== undefined && EURO_REGIONS.has(region) ? 'EUR' : DEFAULT_CURRENCY);
}

// prettier-ignore
const EURO_REGIONS = new Set([
  'AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI',
  'SK', 'AD', 'MC', 'SM', 'VA', 'ME', 'XK',
]);

// prettier-ignore
const REGION_CURRENCY: Record<string, CurrencyCode> = {
  US: 'USD', GB: 'GBP', CH: 'CHF', LI: 'CHF', JP: 'JPY', KR: 'KRW', CN: 'CNY', IN: 'INR', CA: 'CAD', AU: 'AUD',
  NZ: 'NZD', SE: 'SEK', NO: 'NOK', DK: 'DKK', PL: 'PLN', CZ: 'CZK', HU: 'HUF', RO: 'RON', BG: 'BGN', IS: 'ISK',
  TR: 'TRY', BR: 'BRL', MX: 'MXN', AR: 'ARS', CL: 'CLP', CO: 'COP', PE: 'PEN', ZA: 'ZAR', IL: 'ILS', AE: 'AED',
  SA: 'SAR', BH: 'BHD', KW: 'KWD', TN: 'TND', EG: 'EGP', SG: 'SGD', HK: 'HKD', TW: 'TWD', TH: 'THB', MY: 'MYR',
  ID: 'IDR', PH: 'PHP', VN: 'VND', UA: 'UAH', RS: 'RSD', NG: 'NGN', KE: 'KES', MA: 'MAD', PK: 'PKR', BD: 'BDT',
};
