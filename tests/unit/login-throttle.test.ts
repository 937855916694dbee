import { describe, expect, it } from 'vitest';
import { LoginThrottle } from '../../src/server/modules/auth/login-throttle';

function throttleAt(start = 1_000_000) {
  let now = start;
  const throttle = new LoginThrottle(3, 60, () => now);
  return { throttle, advance: (seconds: number) => (now += seconds * 1000) };
}

describe('LoginThrottle', () => {
  it('allows attempts until the limit of failures inside the window', () => {
    const { throttle } = throttleAt();
    throttle.recordFailure('alice', '1.1.1.1');
    throttle.recordFailure('alice', '1.1.1.1');
    expect(throttle.retryAfterSeconds('alice', '1.1.1.1')).toBe(0);
    throttle.recordFailure('ALICE ', '1.1.1.1');
    expect(throttle.retryAfterSeconds('alice', '1.1.1.1')).toBe(60);
  });

  it.each([
    ['another user, same address', 'bob', '1.1.1.1', 0],
    ['same user, another address', 'alice', '2.2.2.2', 0],
    ['same user and address', 'Alice', '1.1.1.1', 60],
  ])('keys on username and address: %s', (_label, user, ip, expected) => {
    const { throttle } = throttleAt();
    for (let i = 0; i < 3; i++) throttle.recordFailure('alice', '1.1.1.1');
    expect(throttle.retryAfterSeconds(user, ip)).toBe(expected);
  });

  it('counts down and lifts the block when the oldest failure leaves the window', () => {
    const { throttle, advance } = throttleAt();
    throttle.recordFailure('alice', 'ip');
    advance(10);
    throttle.recordFailure('alice', 'ip');
    throttle.recordFailure('alice', 'ip');
    expect(throttle.retryAfterSeconds('alice', 'ip')).toBe(50);
    advance(49);
    expect(throttle.retryAfterSeconds('alice', 'ip')).toBe(1);
    advance(1);
    expect(throttle.retryAfterSeconds('alice', 'ip')).toBe(0);
  });

  it('forgets failures after a successful login', () => {
    const { throttle } = throttleAt();
    throttle.recordFailure('alice', 'ip');
    throttle.recordFailure('alice', 'ip');
    throttle.recordSuccess('alice', 'ip');
    throttle.recordFailure('alice', 'ip');
    expect(throttle.retryAfterSeconds('alice', 'ip')).toBe(0);
  });
});
