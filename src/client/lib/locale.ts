/** The browser's language (navigator.language) decides how ambiguous amounts are read and shown. */
export function browserLocale(): string {
  if (typeof navigator !== 'undefined' && navigator.language) return navigator.language;
  return 'en-US';
}
