import type { Redis } from 'ioredis';

/** The window a trigger's `rateLimitPerMinute` refills over. */
const WINDOW_MS = 60_000;

// KEYS: the trigger's bucket. ARGV: capacity (deliveries per window), window ms.
// A token bucket holding up to `capacity` tokens, refilled evenly over the window; a delivery takes
// one. Redis' own clock (TIME) is the only clock, so any number of web processes share one bucket
// exactly. The fraction of a token is kept as text (Lua numbers returned to Redis become integers).
// Returns {1, 0} when admitted, else {0, ms until a token is back}.
const TAKE = `
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) * 1000 + math.floor(tonumber(now_parts[2]) / 1000)
local capacity = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
end
tokens = math.min(capacity, tokens + math.max(0, now - at) * capacity / window)
local admitted = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  admitted = 1
else
  wait = math.ceil((1 - tokens) * window / capacity)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], window * 2)
return {admitted, wait}
`;

export type RateVerdict = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/**
 * Each trigger's own rate limit (`rateLimitPerMinute` accepted deliveries a minute, in bursts up to
 * that many), a token bucket in Redis shared by every web process. Only deliveries that passed
 * authentication take a token, so strangers cannot use up a trigger's budget.
 */
export class TriggerRateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'looplane:trigger-rate:',
  ) {}

  /** Takes a token of the trigger's bucket, or says how long until one is back. */
  async take(triggerId: string, perMinute: number): Promise<RateVerdict> {
    const reply = (await this.redis.eval(TAKE, 1, `${this.prefix}${triggerId}`, String(perMinute), String(WINDOW_MS))) as [number, number];
    const [admitted, waitMs] = reply;
    return admitted === 1 ? { admitted: true } : { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
}
