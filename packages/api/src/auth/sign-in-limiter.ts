import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { addressKey } from './address-key';

/** Thresholds of the sign-in limiter (the web reads them from LOOPLANE_SIGNIN_* variables). */
export interface SignInLimits {
  /** Failed sign-ins of one account (email) before it is locked. */
  accountFailures: number;
  /** Failed sign-ins from one client address (an IPv6 /64) before it is locked. */
  addressFailures: number;
  /** The first lockout; each further failure past the threshold doubles it. */
  lockoutMs: number;
  /** The longest lockout. */
  maxLockoutMs: number;
  /** Failures are forgotten after this long without another one (or after a lockout ends). */
  windowMs: number;
}

const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  accountFailures: 5,
  addressFailures: 20,
  lockoutMs: 30_000,
  maxLockoutMs: 15 * 60_000,
  windowMs: 15 * 60_000,
};

type SignInScope = 'account' | 'address';

/** An attempt that may check its password. Until {@link SignInLimiter.succeeded}, it counts as failed. */
export interface AdmittedAttempt {
  admitted: true;
  /** Failures counted so far per scope, this attempt included. */
  failures: Partial<Record<SignInScope, number>>;
  /** The scopes this attempt, should it fail, locks for the first time since their last quiet window. */
  locksOut: SignInScope[];
  /** How long the caller stays locked out if this attempt fails (0: not at all). */
  lockMsIfFails: number;
  /** Keys and lock owner, for {@link SignInLimiter.succeeded}. */
  keys: { account: string | null; address: string | null; owner: string };
}

/** An attempt refused without looking at its password, because a lockout is running. */
export interface RefusedAttempt {
  admitted: false;
  retryAfterMs: number;
}

// KEYS: account fails, account lock, address fails, address lock.
// ARGV: account limit, address limit, lockout ms, max lockout ms, window ms, owner, use account, use address.
// Refused while either lock runs; otherwise counts the attempt as failed up front in both scopes
// (so concurrent attempts cannot all slip in before the first failure is recorded) and, where the
// count reaches the threshold, sets the lock this attempt's failure would cause right away: every
// attempt that arrives while this one checks its password is then refused too.
const BEGIN = `
local wait = 0
if ARGV[7] == '1' then wait = math.max(wait, redis.call('PTTL', KEYS[2])) end
if ARGV[8] == '1' then wait = math.max(wait, redis.call('PTTL', KEYS[4])) end
if wait > 0 then return {0, wait, 0, 0, 0} end
local function count(fails, lock, limit)
  local n = redis.call('INCR', fails)
  local lockMs = 0
  if n >= limit then
    lockMs = math.floor(math.min(tonumber(ARGV[4]), tonumber(ARGV[3]) * 2 ^ math.min(n - limit, 40)))
    redis.call('SET', lock, ARGV[6], 'PX', lockMs)
  end
  redis.call('PEXPIRE', fails, tonumber(ARGV[5]) + lockMs)
  return n, lockMs
end
local accountN, accountMs, addressN, addressMs = 0, 0, 0, 0
if ARGV[7] == '1' then accountN, accountMs = count(KEYS[1], KEYS[2], tonumber(ARGV[1])) end
if ARGV[8] == '1' then addressN, addressMs = count(KEYS[3], KEYS[4], tonumber(ARGV[2])) end
return {1, math.max(accountMs, addressMs), accountN, addressN, 0}
`;

// KEYS as above. ARGV: owner, use account, use address. A success forgets the account's failures;
// the address keeps the others' (a valid account must not launder an address's guesses) and only
// this attempt's own count is taken back. A lock this attempt set is lifted.
const SUCCEEDED = `
local function unlock(lock)
  if redis.call('GET', lock) == ARGV[1] then redis.call('DEL', lock) end
end
if ARGV[2] == '1' then
  redis.call('DEL', KEYS[1])
  unlock(KEYS[2])
end
if ARGV[3] == '1' then
  if tonumber(redis.call('GET', KEYS[3]) or '0') > 0 then redis.call('DECR', KEYS[3]) end
  unlock(KEYS[4])
end
return 1
`;

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

/**
 * Sign-in rate limit and lockout, by account and by client address, kept in Redis so every web
 * process shares it. Past a threshold of failures a key is locked for `lockoutMs`, doubling with
 * each further failure up to `maxLockoutMs`; while it is locked every attempt is refused before
 * its password is checked, the right password included. Emails are stored hashed.
 */
export class SignInLimiter {
  constructor(
    private readonly redis: Redis,
    readonly limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
    private readonly prefix = 'looplane:signin',
  ) {}

  /** Admits or refuses an attempt for `email` from `ip` (either may be unknown: that scope is skipped). */
  async begin(input: { email: string | null; ip: string | null }): Promise<AdmittedAttempt | RefusedAttempt> {
    const email = input.email?.trim().toLowerCase() || null;
    const address = input.ip ? addressKey(input.ip) : null;
    const account = email ? `${this.prefix}:account:${digest(email)}` : null;
    const addressBase = address ? `${this.prefix}:address:${address}` : null;
    const owner = randomBytes(12).toString('base64url');
    const l = this.limits;
    const reply = (await this.redis.eval(
      BEGIN,
      4,
      `${account ?? `${this.prefix}:none`}:fails`,
      `${account ?? `${this.prefix}:none`}:lock`,
      `${addressBase ?? `${this.prefix}:none`}:fails`,
      `${addressBase ?? `${this.prefix}:none`}:lock`,
      l.accountFailures,
      l.addressFailures,
      l.lockoutMs,
      l.maxLockoutMs,
      l.windowMs,
      owner,
      account ? '1' : '0',
      addressBase ? '1' : '0',
    )) as [number, number, number, number, number];
    const [admitted, ms, accountN, addressN] = reply;
    if (admitted === 0) return { admitted: false, retryAfterMs: ms };
    const failures: Partial<Record<SignInScope, number>> = {};
    const locksOut: SignInScope[] = [];
    if (account) {
      failures.account = accountN;
      if (accountN === l.accountFailures) locksOut.push('account');
    }
    if (addressBase) {
      failures.address = addressN;
      if (addressN === l.addressFailures) locksOut.push('address');
    }
    return { admitted: true, failures, locksOut, lockMsIfFails: ms, keys: { account, address: addressBase, owner } };
  }

  /** The attempt's password was right: its failure count is taken back and any lock it set lifted. */
  async succeeded(attempt: AdmittedAttempt): Promise<void> {
    const { account, address, owner } = attempt.keys;
    await this.redis.eval(
      SUCCEEDED,
      4,
      `${account ?? `${this.prefix}:none`}:fails`,
      `${account ?? `${this.prefix}:none`}:lock`,
      `${address ?? `${this.prefix}:none`}:fails`,
      `${address ?? `${this.prefix}:none`}:lock`,
      owner,
      account ? '1' : '0',
      address ? '1' : '0',
    );
  }
}
