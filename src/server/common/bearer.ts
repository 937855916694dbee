/**
 * The credential of an `Authorization: Bearer <token>` header, or null when there is none.
 * Read by the REST auth hook, the tRPC context, the refresh/logout routes and the rate limiter.
 */
export function bearerFrom(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
