/** Column roles recognised by header names in English and the common European languages. */
export type ColumnRole = 'date' | 'amount' | 'debit' | 'credit' | 'indicator' | 'description' | 'description-fallback' | 'category';

export interface ColumnAssignment {
  index: number;
  header: string;
  role: ColumnRole;
}

export function normalizeHeader(header: string): string {
  return header
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/["'’]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const EXCLUDED = /balance|saldo|solde|kontostand|running|\bfee\b|fees|commission|ursprungsbetrag|auslagen|quantity|price|\bqty\b/;
const DATE = /^(transaction date|trans\.? date|date|datum|datetime|date time|fecha|data|buchung|buchungstag|buchungsdatum|belegdatum|run date|date processed|posting date|post(ed)? date|booking date|value date|date de valeur|date operation|date de loperation|date doperation|fecha operacion|fecha valor|valutadatum|valuta|wertstellung|wertstellungsdatum|transactiedatum|boekdatum|rentedatum|paivamaara|kirjauspaiva|dato|bokforingsdag|data operacao|data contabile)\b/;
const DATE_LOOSE = /date|datum|fecha|data\b|buchungstag/;
const AMOUNT = /^(amount|betrag|montant|bedrag|importe|maara|valor|gross|transaction amount|umsatz|summe|belopp|kwota|importo|beloeb|bel.p|value)\b/;
const DEBIT = /^(debit|debits|debit amount|withdrawal|withdrawals|withdrawn|paid out|money out|out|soll|debet|af|cargo|cargos|ausgang|ausgaben|uitgaven|charges?|spent)\b/;
const CREDIT = /^(credit|credits|credit amount|deposit|deposits|paid in|money in|in|haben|bij|abono|abonos|eingang|einnahmen|inkomsten|received)\b/;
const INDICATOR = /^(af ?\/? ?bij|bij ?\/? ?af|creditdebet|debetcredit|credit ?\/ ?debit|debit ?\/ ?credit|d ?\/ ?c|c ?\/ ?d|cr ?\/ ?dr|dr ?\/ ?cr|soll ?\/ ?haben|s ?\/ ?h|debit credit indicator|credit debit indicator|dc|cd)$/;
const DESCRIPTION = /^(description|desc|transaction description|details|transaction details|narrative|particulars|memo|payee|payee name|name|merchant|merchant name|note|notes|action|verwendungszweck|buchungstext|auftraggeber|empfanger|auftraggeber\/empfanger|beguenstigter|begunstigter|beguenstigter\/zahlungspflichtiger|zahlungspflichtiger|libelle|libelle operation|intitule|omschrijving|naam|naam \/ omschrijving|tegenrekeninghouder|mededelingen|concepto|descripcion|historico|descricao|item title|vwz\d*|description \d|selite|saaja\/maksaja|remarks|reference|referenz|text|beschreibung|motivo|causale|descrizione)$/;
const FALLBACK = /^(from|to|counterparty|counter party|type|transaction type|tegenrekening)$/;
const CATEGORY = /^(category|categories|categorie|categoria|kategorie|class|rubrik|rubrique)$/;

/** Assigns roles to a header row; the first matching date column wins. */
export function assignColumns(headers: readonly string[]): ColumnAssignment[] {
  const out: ColumnAssignment[] = [];
  let dateTaken = false;
  let amountTaken = false;
  let debitTaken = false;
  let creditTaken = false;
  let indicatorTaken = false;
  let categoryTaken = false;
  headers.forEach((header, index) => {
    const h = normalizeHeader(header);
    if (!h) return;
    if (DATE.test(h)) {
      if (!dateTaken) out.push({ index, header, role: 'date' });
      dateTaken = true;
      return;
    }
    if (EXCLUDED.test(h)) return;
    if (!indicatorTaken && INDICATOR.test(h)) {
      indicatorTaken = true;
      out.push({ index, header, role: 'indicator' });
      return;
    }
    if (!amountTaken && AMOUNT.test(h)) {
      amountTaken = true;
      out.push({ index, header, role: 'amount' });
      return;
    }
    if (!debitTaken && DEBIT.test(h)) {
      debitTaken = true;
      out.push({ index, header, role: 'debit' });
      return;
    }
    if (!creditTaken && CREDIT.test(h)) {
      creditTaken = true;
      out.push({ index, header, role: 'credit' });
      return;
    }
    if (!categoryTaken && CATEGORY.test(h)) {
      categoryTaken = true;
      out.push({ index, header, role: 'category' });
      return;
    }
    if (DESCRIPTION.test(h)) {
      out.push({ index, header, role: 'description' });
      return;
    }
    if (FALLBACK.test(h)) out.push({ index, header, role: 'description-fallback' });
  });
  return out;
}

/** A row that could be the header: it names a date column and an amount (or debit/credit) column. */
export function looksLikeHeader(cells: readonly string[]): boolean {
  const roles = assignColumns(cells).map((c) => c.role);
  return roles.includes('date') && (roles.includes('amount') || (roles.includes('debit') && roles.includes('credit')));
}

export function mentionsDate(cells: readonly string[]): boolean {
  return cells.some((c) => DATE_LOOSE.test(normalizeHeader(c)));
}

export function hasAmountColumn(roles: readonly ColumnAssignment[]): boolean {
  return roles.some((c) => c.role === 'amount') || (roles.some((c) => c.role === 'debit') && roles.some((c) => c.role === 'credit'));
}

/** Indicator cell -> +1 (money in) / -1 (money out) / 0 unknown. */
export function indicatorSign(raw: string): number {
  const v = normalizeHeader(raw);
  if (/^(c|cr|credit|bij|h|haben|in|\+|deposit|ontvangen)$/.test(v)) return 1;
  if (/^(d|dr|debit|debet|af|s|soll|out|-|withdrawal)$/.test(v)) return -1;
  return 0;
}
