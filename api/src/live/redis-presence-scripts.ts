/**
 * The Lua scripts of the Redis presence store (redis-presence.ts). Each runs atomically in
 * Redis, so two processes that add or remove the same user at once agree on who was first and
 * who was last. Time is Redis's own clock (TIME), not the processes' (their clocks may differ).
 *
 * Layout per scope: KEYS[1] a sorted set of entries `<userId>|<processId>` scored by their
 * expiry (ms); KEYS[2] a hash with `<userId>` → JSON {displayName, joinedAt} and
 * `d|<userId>` → the JSON data of setData.
 */
const HELPERS = `
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function user_of(member)
  return string.match(member, '^(.*)|')
end
local function live_count(key, user, t)
  local n = 0
  local prefix = user .. '|'
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', key, t, '+inf')) do
    if string.sub(m, 1, #prefix) == prefix then n = n + 1 end
  end
  return n
end
local function forget(key, hash, user, t)
  local prefix = user .. '|'
  for _, m in ipairs(redis.call('ZRANGEBYSCORE', key, '-inf', '(' .. t)) do
    if string.sub(m, 1, #prefix) == prefix then redis.call('ZREM', key, m) end
  end
  redis.call('HDEL', hash, user, 'd|' .. user)
end
local function keep(ttl)
  redis.call('PEXPIRE', KEYS[1], ttl * 2)
  redis.call('PEXPIRE', KEYS[2], ttl * 2)
end
`;

/** ARGV: member, userId, ttlMs, displayName → 1 when the user was nowhere in the scope before. */
export const ENTER = `${HELPERS}
local t = now()
local ttl = tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], t + ttl, ARGV[1])
local first = 0
if live_count(KEYS[1], ARGV[2], t) == 1 then
  first = 1
  redis.call('HSET', KEYS[2], ARGV[2], cjson.encode({displayName = ARGV[4], joinedAt = t}))
  redis.call('HDEL', KEYS[2], 'd|' .. ARGV[2])
end
keep(ttl)
return first`;

/** ARGV: member, userId → 1 when the user has no live entry left (their expired ones go too). */
export const EXIT = `${HELPERS}
local t = now()
redis.call('ZREM', KEYS[1], ARGV[1])
if live_count(KEYS[1], ARGV[2], t) > 0 then return 0 end
forget(KEYS[1], KEYS[2], ARGV[2], t)
return 1`;

/** → a flat list: userId, info JSON, data JSON ('' when none), per live user. */
export const LIST = `${HELPERS}
local t = now()
local seen = {}
local out = {}
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], t, '+inf')) do
  local user = user_of(m)
  if user and not seen[user] then
    seen[user] = true
    table.insert(out, user)
    table.insert(out, redis.call('HGET', KEYS[2], user) or '')
    table.insert(out, redis.call('HGET', KEYS[2], 'd|' .. user) or '')
  end
end
return out`;

/** ARGV: userId, data JSON. Only while the user is present. */
export const SET_DATA = `
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], 'd|' .. ARGV[1], ARGV[2])
return 1`;

/**
 * ARGV: ttlMs, then per entry of this process its member and display name. Extends them;
 * removes expired entries of others.
 * → {left: flat userId, info JSON; rejoined: flat userId, info JSON}.
 */
export const RENEW = `${HELPERS}
local t = now()
local ttl = tonumber(ARGV[1])
local rejoined = {}
for i = 2, #ARGV, 2 do
  local m = ARGV[i]
  local user = user_of(m)
  local had = redis.call('ZSCORE', KEYS[1], m)
  local others = live_count(KEYS[1], user, t)
  redis.call('ZADD', KEYS[1], t + ttl, m)
  -- Removed by another process (which announced the user's departure) while nobody else holds the user: back.
  if not had and others == 0 then
    local info = cjson.encode({displayName = ARGV[i + 1], joinedAt = t})
    if redis.call('HEXISTS', KEYS[2], user) == 1 then info = redis.call('HGET', KEYS[2], user) else redis.call('HSET', KEYS[2], user, info) end
    table.insert(rejoined, user)
    table.insert(rejoined, info)
  end
end
local left = {}
local gone = {}
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. t)) do
  redis.call('ZREM', KEYS[1], m)
  local user = user_of(m)
  if user then gone[user] = true end
end
for user, _ in pairs(gone) do
  if live_count(KEYS[1], user, t) == 0 then
    table.insert(left, user)
    table.insert(left, redis.call('HGET', KEYS[2], user) or '')
    forget(KEYS[1], KEYS[2], user, t)
  end
end
keep(ttl)
return {left, rejoined}`;
