/**
 * Spreadsheet formula injection guard (OWASP "CSV injection"): a cell a spreadsheet would run
 * as a formula (starting with =, +, -, @, their full-width forms, tab or carriage return) is written with a leading
 * apostrophe. A cell that already starts with apostrophes before such a character gets one
 * more, so `unguardFormula` undoes exactly what `guardFormula` did and our own exports import
 * back unchanged.
 */
// Full-width ＝ ＋ － ＠ too: spreadsheets in East Asian locales read them as their ASCII forms.
const GUARDED = /^'*[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const UNGUARD = /^'+[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

export function guardFormula(cell: string): string {
  return GUARDED.test(cell) ? `'${cell}` : cell;
}

export function unguardFormula(cell: string): string {
  return UNGUARD.test(cell) ? cell.slice(1) : cell;
}
