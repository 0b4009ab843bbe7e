-- One atomic compare-and-set write of a game (see shared/store.py).
-- KEYS: 1 game document, 2 events stream, 3 moves list, 4 idempotency hash
--       (all share the game's {id} hash tag, so this also runs on Redis Cluster).
-- ARGV: 1 expected version (0: the game must not exist yet), 2 new document,
--       3 ttl seconds, 4 idempotency field ('' for none), 5 idempotency record,
--       6 number of events N, then N pairs (event id, event json), then the moves.
-- With a 5th key (the game's due-time shard, on a single Redis only: on Cluster it is
-- in another slot), the last two ARGV are the game id and its due time in ms ('': not
-- due, removed)
-- and the schedule changes in the same atomic step as the game.
-- Webhooks (shared/webhooks): when ARGV[6] is 'N:K' (K > 0), ARGV[7] is '1' when a due
-- key comes first (KEYS[5]), and K outbox entries follow the moves (pairs: field 'n',
-- notification json, before the two due ARGV), appended to the next key (the game's
-- outbox stream, same hash tag) in the same atomic step. A key after it (single Redis
-- only) is the webhook ready-stream shard: it gets one entry naming the game.
-- Returns {'ok'} | {'duplicate', record} | {'conflict', current version} | {'missing'}.
-- Every check comes before the first write, so a refused call changes nothing.
local idem_field = ARGV[4]
if idem_field ~= '' then
  local prior = redis.call('HGET', KEYS[4], idem_field)
  if prior then return {'duplicate', prior} end
end
local expected = tonumber(ARGV[1])
local current = redis.call('GET', KEYS[1])
if expected == 0 then
  if current then return {'conflict', 'exists'} end
else
  if not current then return {'missing'} end
  local version = string.match(current, '^{"version":(%d+),')
  if version == nil then version = cjson.decode(current)['version'] end
  if tonumber(version) ~= expected then return {'conflict', tostring(version)} end
end
local ttl = tonumber(ARGV[3])
local n_text, k_text = string.match(ARGV[6], '^(%d+):(%d+)$')
local n = tonumber(n_text or ARGV[6])
local k = tonumber(k_text or '0')
local due_key = nil
local key_at = 5
local i = 7
local last = #ARGV
if k > 0 then
  -- layout with an outbox: the due key (if any) is flagged by a leading ARGV[7]
  due_key = (ARGV[7] == '1') and KEYS[5] or nil
  if due_key then key_at = 6 end
  i = 8
  if due_key then last = last - 2 end
  last = last - 2 * k
elseif #KEYS >= 5 then
  due_key = KEYS[5]
  last = last - 2
end
for _ = 1, n do
  redis.call('XADD', KEYS[2], ARGV[i], 'e', ARGV[i + 1])
  i = i + 2
end
if n > 0 then redis.pcall('SPUBLISH', KEYS[2], n) end -- wakes waiters (shared/fanout.py)
while i <= last do
  redis.call('RPUSH', KEYS[3], ARGV[i])
  i = i + 1
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ttl)
if idem_field ~= '' then redis.call('HSET', KEYS[4], idem_field, ARGV[5]) end
redis.call('EXPIRE', KEYS[2], ttl)
redis.call('EXPIRE', KEYS[3], ttl)
redis.call('EXPIRE', KEYS[4], ttl)
if k > 0 then
  local j = last + 1
  for _ = 1, k do
    redis.call('XADD', KEYS[key_at], '*', ARGV[j], ARGV[j + 1])
    j = j + 2
  end
  redis.call('EXPIRE', KEYS[key_at], ttl)
  if KEYS[key_at + 1] then
    redis.call('XADD', KEYS[key_at + 1], '*', 'g', string.match(KEYS[key_at], '{(.-)}'))
  end
end
if due_key then
  local d = #ARGV
  if ARGV[d] == '' then
    redis.call('ZREM', due_key, ARGV[d - 1])
  else
    redis.call('ZADD', due_key, ARGV[d], ARGV[d - 1])
  end
end
return {'ok'}
