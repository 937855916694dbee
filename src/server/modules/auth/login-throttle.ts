/**
 * Counts failed logins per username and client address. After `maxFailures`
 * within `windowSeconds`, further attempts for that pair are refused until the
 * oldest failure leaves the window. Keyed on both, so one attacker cannot lock
 * every user out from their own address.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  private key(username: string, ip: string): string {
    return `${username.trim().toLowerCase()}\u0000${ip}`;
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowSeconds * 1000;
    const kept = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (kept.length) this.failures.set(key, kept);
    else this.failures.delete(key);
    return kept;
  }

  /** Seconds to wait before trying again, or 0 when an attempt is allowed. */
  retryAfterSeconds(username: string, ip: string): number {
    const recent = this.recent(this.key(username, ip));
    if (recent.length < this.maxFailures) return 0;
    const oldest = recent[recent.length - this.maxFailures];
    return Math.max(1, Math.ceil((oldest + this.windowSeconds * 1000 - this.now()) / 1000));
  }

  recordFailure(username: string, ip: string): void {
    const key = this.key(username, ip);
    const recent = this.recent(key);
    recent.push(this.now());
    this.failures.set(key, recent);
    if (this.failures.size > 100_000) this.prune();
  }

  recordSuccess(username: string, ip: string): void {
    this.failures.delete(this.key(username, ip));
  }

  private prune(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}
