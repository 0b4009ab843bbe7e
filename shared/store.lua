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
local n = tonumber(ARGV[6])
local i = 7
local last = #ARGV
if #KEYS >= 5 then last = last - 2 end
for _ = 1, n do
  redis.call('XADD', KEYS[2], ARGV[i], 'e', ARGV[i + 1])
  i = i + 2
end
while i <= last do
  redis.call('RPUSH', KEYS[3], ARGV[i])
  i = i + 1
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ttl)
if idem_field ~= '' then redis.call('HSET', KEYS[4], idem_field, ARGV[5]) end
redis.call('EXPIRE', KEYS[2], ttl)
redis.call('EXPIRE', KEYS[3], ttl)
redis.call('EXPIRE', KEYS[4], ttl)
if #KEYS >= 5 then
  if ARGV[#ARGV] == '' then
    redis.call('ZREM', KEYS[5], ARGV[#ARGV - 1])
  else
    redis.call('ZADD', KEYS[5], ARGV[#ARGV], ARGV[#ARGV - 1])
  end
end
return {'ok'}
