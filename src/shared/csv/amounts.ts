/**
 * Amount cells to integer cents without floating point: currency symbols and codes,
 * thousands separators (, . ' space), decimal comma, parentheses and trailing-minus
 * negatives, leading "+ ", and CR/DR suffixes (which fix the sign absolutely).
 */
export interface ParsedAmount {
  cents: number;
  /** 'CR' or 'DR' when the cell itself says which way the money went. */
  marker: 'CR' | 'DR' | null;
}

const CURRENCY =
  /(?:[$€£¥₹₩₽¢]|R\$|S\$|US\$|CHF|EUR|USD|GBP|SGD|CAD|AUD|NZD|SEK|NOK|DKK|PLN|CZK|HUF|BRL|JPY|INR|ZAR|MXN|kr\.?|zł|Fr\.)/gi;

export type AmountResult = { ok: true; amount: ParsedAmount | null } | { ok: false };

/** Empty cell -> amount null; unreadable -> ok false. */
const PLAIN = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/;

export function parseAmountCell(raw: string): AmountResult {
  const plain = PLAIN.exec(raw);
  if (plain) {
    const cents = Number(plain[2]) * 100 + Number((plain[3] ?? '').padEnd(2, '0'));
    return { ok: true, amount: { cents: plain[1] && cents !== 0 ? -cents : cents, marker: null } };
  }
  // Spaces of any width pad or group digits; a typographic minus or dash is a minus.
  let text = raw
    .replace(/[\u00a0\u2007\u2009\u202f]/g, ' ')
    .replace(/^(\s*)[\u2212\u2013]/, '$1-')
    .trim();
  if (text === '' || text === '-' || text === '--') return { ok: true, amount: null };
  let negative = false;
  let marker: ParsedAmount['marker'] = null;
  const suffix = /\s*\b(CR|DR|Cr|Dr|H|S)\.?$/.exec(text);
  const suffixMark = suffix?.[1];
  if (suffix && suffixMark !== undefined && /\d/.test(text.slice(0, suffix.index))) {
    const s = suffixMark.toUpperCase();
    marker = s === 'CR' || s === 'H' ? 'CR' : 'DR';
    text = text.slice(0, suffix.index).trim();
  }
  if (/^\(.*\)$/.test(text)) {
    negative = true;
    text = text.slice(1, -1).trim();
  }
  text = text.replace(CURRENCY, ' ').trim();
  if (/^-/.test(text)) {
    negative = !negative;
    text = text.slice(1).trim();
  } else if (/^\+/.test(text)) text = text.slice(1).trim();
  if (/-$/.test(text)) {
    negative = !negative;
    text = text.slice(0, -1).trim();
  }
  text = text.replace(CURRENCY, ' ').trim();
  if (/^-/.test(text)) {
    negative = !negative;
    text = text.slice(1).trim();
  }
  if (!/^\d[\d.,' ]*$/.test(text) || !/\d$/.test(text)) return { ok: false };
  const cents = digitsToCents(text);
  if (cents === null) return { ok: false };
  return { ok: true, amount: { cents: negative && cents !== 0 ? -cents : cents, marker } };
}

/** "1.234,56" "1,234.56" "11'373.94" "1 234,5" "827,75" "2500" -> cents; null when unclear. */
function digitsToCents(text: string): number | null {
  const compact = text.replace(/[' ]/g, '');
  const lastDot = compact.lastIndexOf('.');
  const lastComma = compact.lastIndexOf(',');
  let whole = compact;
  let fraction = '';
  const decimalAt = Math.max(lastDot, lastComma);
  if (decimalAt >= 0) {
    const sep = compact.charAt(decimalAt);
    const after = compact.slice(decimalAt + 1);
    const both = lastDot >= 0 && lastComma >= 0;
    const single = compact.split(sep).length - 1 === 1;
    // One separator followed by exactly three digits is a thousands separator (1,234 / 1.234).
    const isDecimal = both || (single && after.length !== 3);
    if (isDecimal) {
      if (after.length > 2 || after.length === 0) return null;
      whole = compact.slice(0, decimalAt);
      fraction = after;
    }
  }
  const groups = whole.split(/[.,]/);
  const lead = groups[0] ?? '';
  if (groups.length > 1 && (lead.length === 0 || lead.length > 3 || groups.slice(1).some((g) => g.length !== 3)))
    return null;
  whole = groups.join('');
  if (!/^\d*$/.test(whole) || !/^\d*$/.test(fraction) || (whole === '' && fraction === '')) return null;
  const digits = `${whole || '0'}${fraction.padEnd(2, '0')}`.replace(/^0+(?=\d)/, '');
  if (digits.length > 16) return null;
  const cents = Number(digits);
  return Number.isSafeInteger(cents) ? cents : null;
}
