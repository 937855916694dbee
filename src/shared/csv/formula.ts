/**
 * Spreadsheet formula injection guard (OWASP "CSV injection"): a cell a spreadsheet would run
 * as a formula (starting with =, +, -, @, tab or carriage return) is written with a leading
 * apostrophe. A cell that already starts with apostrophes before such a character gets one
 * more, so `unguardFormula` undoes exactly what `guardFormula` did and our own exports import
 * back unchanged.
 */
const GUARDED = /^'*[=+\-@\t\r]/;
const UNGUARD = /^'+[=+\-@\t\r]/;

export function guardFormula(cell: string): string {
  return GUARDED.test(cell) ? `'${cell}` : cell;
}

export function unguardFormula(cell: string): string {
  return UNGUARD.test(cell) ? cell.slice(1) : cell;
}
