/**
 * Column roles recognised by header names in English and the common European languages.
 * Names are compared after splitting CamelCase, dropping punctuation and accents, and
 * dropping units or currencies in brackets, so `PostedDate`, `Amount (USD)` and `posted date`
 * read alike.
 */
export type ColumnRole =
  | 'date'
  | 'amount'
  | 'debit'
  | 'credit'
  | 'indicator'
  | 'description'
  | 'description-fallback'
  /** The other party of the payment, whichever way the money went. */
  | 'counterparty'
  /** The party money out went to (used for money out only). */
  | 'payee'
  /** The party money in came from (used for money in only). */
  | 'payer'
  | 'category'
  | 'currency'
  /** What was paid in another currency (a card payment abroad), and that currency. */
  | 'original-amount'
  | 'original-currency';

export interface ColumnAssignment {
  index: number;
  header: string;
  role: ColumnRole;
  /** Told by what the column holds rather than by its header. */
  byContent?: boolean;
}

/** Brackets holding a unit, a currency or a sign: `(USD)`, `[€]`, `(-)`, `(+)`, `(in EUR)`, `(EUR)`. */
const UNIT_BRACKETS = /[([{]\s*(?:[Ii]n\s+)?(?:[A-Z]{3}|[$€£¥₹₩₽¢]|[+-]|[Cc]ents?)\s*[)\]}]/g;

/**
 * Gender-neutral spellings read as the plain word: `Empfänger*in`, `Zahlungsempfänger:in`,
 * `Auftraggeber/-in`, `Empfänger(in)`, `EmpfängerIn`, `Zahlungspflichtige*r`.
 */
const GENDER_MARK = /([a-zäöüß])(?:\*|:|_|\/-?|\(-?)(innen|in|r)\)?(?![a-zäöüß])/g;
const GENDER_CAPITAL = /(er)(?:In|Innen)(?![a-zäöüß])/g;

/** A currency written after a header word is its unit: `Debit EUR`, `Crédit euros`, `Betrag in CHF`. */
const TRAILING_UNIT =
  /(\S) (?:in )?(?:eur|euro|euros|usd|gbp|chf|sek|nok|dkk|pln|czk|huf|ron|bgn|isk|jpy|cad|aud|nzd|brl|mxn|zar|inr|sgd|hkd|try|kr|kc|zl|ft)$/;

/**
 * The comparable form of a header: CamelCase split, accents, quotes, units in brackets or after
 * the word, gender marks, a leading `#` and punctuation dropped, lower case, single spaces.
 * `/` is kept (Af/Bij, D/C).
 */
export function normalizeHeader(header: string): string {
  return header
    .replace(UNIT_BRACKETS, ' ')
    .replace(GENDER_MARK, (_m, last: string, suffix: string) => (suffix === 'r' ? `${last}r` : last))
    .replace(GENDER_CAPITAL, '$1')
    .replace(/^\s*#+/, '')
    .replace(/([a-z\u00df-\u00ff])([A-Z])/g, '$1 $2')
    .replace(/[A-Z](?=[A-Z][a-z])/g, '$& ')
    .replace(/[øØ]/g, 'o')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[łŁ]/g, 'l')
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/["'’`]/g, '')
    .replace(/[^a-z0-9/#&\s]+/g, ' ')
    .split('/')
    .map((part) => part.trim())
    .join('/')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(TRAILING_UNIT, '$1');
}

/** How much a date column is preferred: booking / transaction dates first, value / settlement dates last. */
const DATE_LATE =
  /\b(value|valeur|valor|valuta|valutadatum|wertstellung|wertstellungsdatum|settlement|settled|completed|completion|rentedatum|rentedato|valutadag|valutadato|arvopaiva|balancete|effective)\b|^valuta|valutadatum$/;
const DATE_POSTED = /\b(posted|posting|post|processed|run|boekdatum)\b/;

const EXCLUDED =
  /balance|saldo|solde|kontostand|running|\bfee\b|\bfees\b|commission|ursprungsbetrag|auslagen|quantity|price|\bqty\b|\bid\b|number|\bno\b|#|nummer|iban|bic|sort code|card|rekening$|account$|kontonummer|auftragskonto|mandat|glaubiger|glaeubiger|time ?zone|\btime\b|status|\bstate\b/;
const DATE =
  /^(transaction|trans|booking|booked|posting|posted|post|value|started|start|completed|settlement|operation|run|entry|buchung|buchungs|effective)? ?(date|datum|fecha|data|dato|datetime|date time|day)\b|^(buchung|buchungstag|buchungsdatum|belegdatum|valutadatum|valuta|wertstellung|wertstellungsdatum|transactiedatum|boekdatum|rentedatum|paivamaara|kirjauspaiva|bokforingsdag|bokforingsdatum|date processed|date de valeur|date operation|date de loperation|date doperation|fecha operacion|fecha valor|data operacao|data contabile|data valuta|date comptable)\b/;
/** Date words of more languages, anywhere in the header or as the end of a compound (Bokföringsdag, Bogføringsdato). */
const DATE_WORD =
  /(?:^| )(?:date|datum|fecha|data|dato|dia|day|pvm)(?: |$)|(?:datum|dato|dag|paiva|pvm)$|^f (?:valor|operacion|contable)$|^(?:buchungstag|valutatag|umsatztag)$/;
const DATE_LOOSE = /date|datum|fecha|data\b|buchungstag/;
const AMOUNT =
  /^(amount|betrag|montant|bedrag|importe|maara|valor|gross|net|transaction amount|umsatz|summe|belopp|kwota|importo|beloeb|bel.p|belob|value|sum|total|objem|castka|osszeg|suma|summa|montante|valore|kwota operacji)\b/;
const DEBIT =
  /^(debit|debits|debit amount|withdrawal|withdrawals|withdrawn|paid out|money out|out|soll|debet|af|cargo|cargos|ausgang|ausgaben|uitgaven|charges?|spent|sortie|debito|belastung|belastungen|lastschrift|uttak|uttag|utbetalning|udbetaling|addebiti|addebito|uscite|uscita|dare|obciazenia|wyplaty|terhelés|terheles|naplata|vydaj|debitering)\b/;
const CREDIT =
  /^(credit|credits|credit amount|deposit|deposits|paid in|money in|in|haben|bij|abono|abonos|eingang|einnahmen|inkomsten|received|entree|credito|gutschrift|gutschriften|innskudd|inbetalning|insattning|indbetaling|accrediti|accredito|entrate|entrata|avere|uznania|wplywy|jovairas|prijem|kreditering)\b/;
const INDICATOR_COMPACT =
  /^(af\/?bij|bij\/?af|credit\/?debet|debet\/?credit|credit\/?debit|debit\/?credit|d\/?c|c\/?d|cr\/?dr|dr\/?cr|soll\/?haben|haben\/?soll|s\/?h|h\/?s|debitcreditindicator|creditdebitindicator|cdtdbtind|sign|direction|richting|transaction direction|in\/?out)$/;
const COUNTERPARTY =
  /^(payee|payee name|name|merchant|merchant name|counterparty|counterparty name|counter party|counter party name|other party|party|auftraggeber\/empfanger|empfanger\/auftraggeber|auftraggeber\/empfaenger|empfaenger\/auftraggeber|beguenstigter\/zahlungspflichtiger|begunstigter\/zahlungspflichtiger|zahlungspflichtiger\/beguenstigter|name zahlungsbeteiligter|zahlungsbeteiligter|tegenrekeninghouder|tegenpartij|naam tegenpartij|naam|naam \/ omschrijving|naam\/omschrijving|saaja\/maksaja|nom|nom du tiers|tiers|contrepartie|beneficiario\/ordenante|ordenante\/beneficiario|payee\/payer|payer\/payee|description payee|vendor|supplier|supplier found|nimi|kontrahent|nazwa kontrahenta|dane kontrahenta|nazev protiuctu|protistrana|controparte|motpart|gegenpartei|name gegenkonto|partner|partner name|partnername|tegenpartij naam)$/;
const PAYEE =
  /^(to|recipient|recipient name|beneficiary|beneficiary name|empfanger|empfaenger|zahlungsempfanger|zahlungsempfaenger|beguenstigter|begunstigter|destinataire|destinatario|begunstigde|paid to|payee account name|maksunsaaja|saaja|mottagare|mottaker|modtager|odbiorca|nazwa odbiorcy|prijemce|beneficiaire|nom du beneficiaire|beneficiario)$/;
const PAYER =
  /^(from|payer|payer name|sender|sender name|originator|originator name|ordering party|remitter|auftraggeber|zahlungspflichtiger|ordenante|donneur dordre|remitente|opdrachtgever|paid by|maksaja|avsandare|afsender|avsender|nadawca|nazwa nadawcy|platce|emetteur|ordinante)$/;
/** "Beneficiary / Originator", "Payee/Payer", "Empfänger/Auftraggeber": either party, by direction. */
function isPartyPair(h: string): boolean {
  const parts = h.split('/').map((p) => p.trim());
  return (
    parts.length === 2 &&
    parts.every((p) => PAYEE.test(p) || PAYER.test(p) || COUNTERPARTY.test(p)) &&
    parts.some((p) => PAYER.test(p) || PAYEE.test(p))
  );
}
const DESCRIPTION =
  /^(description|desc|transaction description|details|transaction details|narrative|narration|particulars|memo|note|notes|action|purpose|verwendungszweck|libelle|libelle operation|intitule|omschrijving|mededelingen|concepto|descripcion|historico|descricao|item title|vwz\d*|description \d|selite|remarks|reference|referenz|text|beschreibung|motivo|causale|descrizione|communication|mitteilung|betreff|payment reference|remittance information|message|memo \d|details \d|label|beskrivning|beskrivelse|forklaring|tekst|teksti|otsikko|viesti|opis|opis operacji|tytul|tytul operacji|zprava|zprava pro prijemce|poznamka|referens|meddelande|descrizione estesa|descripcion ampliada|observaciones|mededeling|detalhes|leiras|kozlemeny|popis)$/;
const FALLBACK =
  /^(buchungstext|type|transaction type|tegenrekening|mutatie soort|mutatiesoort|code|betaalwijze|type betaling|category description|typ|umsatztyp|umsatzart|movimiento|tipo|tipo de movimiento|tipo movimento|transaktionstyp|typ transakcji|typ operacji|type doperation|type operation|tapahtuma|tapahtumalaji)$/;
const CATEGORY = /^(category|categories|categorie|categoria|kategorie|class|rubrik|rubrique)$/;
const CURRENCY =
  /^(currency|ccy|currency code|wahrung|waehrung|devise|moneda|valutacode|valuta code|monn|monnaie|waluta|valuuta|mena|divisa|valutta)$/;

const ORIGINAL_AMOUNT =
  /^(original amount|orig amount|local amount|foreign amount|foreign currency amount|amount in foreign currency|original transaction amount|betrag in fremdwahrung|fremdwahrungsbetrag|montant dorigine|montant en devise|importe original|importe en divisa)$/;
const ORIGINAL_CURRENCY =
  /^(original currency|orig currency|local currency|foreign currency|fremdwahrung|devise dorigine|moneda original|divisa original)$/;

/** A header naming a column that is never an amount or a description (a balance, an id, a time). */
export function excludedHeader(normalized: string): boolean {
  return normalized !== '' && EXCLUDED.test(normalized);
}

/** Preference of a date column: 0 booking/transaction/plain date, 1 posting date, 2 value/settlement date. */
export function dateRank(normalized: string): number {
  if (DATE_LATE.test(normalized)) return 2;
  if (DATE_POSTED.test(normalized)) return 1;
  return 0;
}

/**
 * A qualifier in front of a plain column name ("BookingText", "Posting Amount", "Payment Details",
 * "Transaction Currency"): the name reads like its plain form when the whole name has no role.
 */
const QUALIFIER =
  /^(transaction|trans|txn|booking|booked|posted|posting|post|payment|operation|entry|started|completed) (?=\S)/;

function roleOf(h: string): ColumnRole | null {
  const role = plainRoleOf(h);
  if (role || EXCLUDED.test(h) || !QUALIFIER.test(h)) return role;
  return plainRoleOf(h.replace(QUALIFIER, ''));
}

function plainRoleOf(h: string): ColumnRole | null {
  if (DATE.test(h) && !/\btime\b/.test(h.replace(/date ?time/, ''))) return 'date';
  if (DATE_WORD.test(h) && !/\btime\b|saldo|balance/.test(h)) return 'date';
  if (CURRENCY.test(h)) return 'currency';
  if (ORIGINAL_AMOUNT.test(h)) return 'original-amount';
  if (ORIGINAL_CURRENCY.test(h)) return 'original-currency';
  if (INDICATOR_COMPACT.test(h.replace(/\s+/g, ''))) return 'indicator';
  if (EXCLUDED.test(h)) return null;
  if (AMOUNT.test(h)) return 'amount';
  if (DEBIT.test(h)) return 'debit';
  if (CREDIT.test(h)) return 'credit';
  if (CATEGORY.test(h)) return 'category';
  if (COUNTERPARTY.test(h) || isPartyPair(h)) return 'counterparty';
  if (PAYEE.test(h)) return 'payee';
  if (PAYER.test(h)) return 'payer';
  if (DESCRIPTION.test(h)) return 'description';
  if (FALLBACK.test(h)) return 'description-fallback';
  return null;
}

/** Roles a file has at most one column of (the first, or the best date column). */
const SINGLE: ReadonlySet<ColumnRole> = new Set([
  'date',
  'amount',
  'debit',
  'credit',
  'indicator',
  'category',
  'currency',
  'original-amount',
  'original-currency',
]);

/**
 * Assigns roles to a header row. Of several date columns the booking or transaction date
 * wins over posting dates, and those over value or settlement dates (first on a tie).
 */
export function assignColumns(headers: readonly string[]): ColumnAssignment[] {
  const out: ColumnAssignment[] = [];
  let bestDate: { index: number; header: string; rank: number } | null = null;
  headers.forEach((header, index) => {
    const h = normalizeHeader(header);
    if (!h || header.trim().endsWith(':')) return;
    const role = roleOf(h);
    if (!role) return;
    if (role === 'date') {
      const rank = dateRank(h);
      if (!bestDate || rank < bestDate.rank) bestDate = { index, header, rank };
      return;
    }
    if (SINGLE.has(role) && out.some((c) => c.role === role)) return;
    out.push({ index, header, role });
  });
  const date = bestDate as { index: number; header: string } | null;
  if (date) out.push({ index: date.index, header: date.header, role: 'date' });
  return out.sort((a, b) => a.index - b.index);
}

/** A row that could be the header: it names a date column and an amount (or debit/credit) column. */
export function looksLikeHeader(cells: readonly string[]): boolean {
  if (isKeyValueLine(cells)) return false;
  return hasDateAndAmount(assignColumns(cells));
}

export function hasDateAndAmount(columns: readonly ColumnAssignment[]): boolean {
  return columns.some((c) => c.role === 'date') && hasAmountColumn(columns);
}

/**
 * A key–value line of a preamble: a label ending in a colon followed by a value
 * ("Account:;12345", "Period: 01.01.–31.01."), never a header.
 */
export function isKeyValueLine(cells: readonly string[]): boolean {
  const filled = cells.map((c) => c.trim()).filter(Boolean);
  const [first] = filled;
  if (first === undefined) return false;
  return /:$/.test(first) || (filled.length <= 2 && /^[^:]{1,40}:\s*\S/.test(first));
}

export function mentionsDate(cells: readonly string[]): boolean {
  return cells.some((c) => DATE_LOOSE.test(normalizeHeader(c)));
}

export function hasAmountColumn(roles: readonly ColumnAssignment[]): boolean {
  return (
    roles.some((c) => c.role === 'amount') ||
    (roles.some((c) => c.role === 'debit') && roles.some((c) => c.role === 'credit'))
  );
}

/** Indicator cell -> +1 (money in) / -1 (money out) / 0 unknown. */
export function indicatorSign(raw: string): number {
  const v = raw.trim().toLowerCase();
  if (v === '') return 0;
  if (/^(c|cr|crdt|credit|bij|h|haben|in|\+|deposit|ontvangen|gutschrift|incoming|received)$/.test(v)) return 1;
  if (/^(d|dr|dbit|debit|debet|af|s|soll|out|-|withdrawal|lastschrift|outgoing|sent|paid)$/.test(v)) return -1;
  return 0;
}
