/** "22 Nov 2026, 14:05" in the browser's locale, or "unknown" for a missing timestamp. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return 'unknown';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
