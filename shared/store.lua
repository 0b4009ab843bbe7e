-- One atomic compare-and-set write of a game (see shared/store.py).
-- KEYS: 1 game document, 2 events stream, 3 history tail, 4 history archive, then,
--       flagged by ARGV[8]: the game's due-time shard (single Redis only: on Cluster it
--       is in another slot), the webhook outbox stream, the webhook ready-stream shard
--       (single Redis only), and the two keys of a game written by older code (its
--       moves list and idempotency hash, deleted once migrated). All but the shards
--       share the game's {id} hash tag, so this also runs on Redis Cluster.
-- ARGV: 1 expected version (0: the game must not exist yet), 2 new document,
--       3 ttl seconds, 4 tail text, 5 tail mode ('a': append ARGV[4], 's': set the tail
--       to it, 'd': delete the tail), 6 archive lines to append ('': none), 7 stream
--       MINID to trim to ('': none; '!<s>': the game ended: a new stream with this
--       write's events only, expiring after s seconds: it wakes the readers waiting now,
--       later ones get the events rebuilt from the history), 8 'N:K:D:R:L' (N events, K webhook notifications,
--       D 1 with a due key, R 1 with a ready key, L 1 with the two old keys to delete),
--       then N pairs (event id, event json), K notification jsons, and with D the game
--       id and its due time in ms ('': not due, removed).
-- Returns {'ok'} | {'conflict', current version} | {'missing'}.
-- Every check comes before the first write, so a refused call changes nothing.
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
local n, k, d, r, l = string.match(ARGV[8], '^(%d+):(%d+):(%d):(%d):(%d)$')
n, k = tonumber(n), tonumber(k)
local i = 9
-- The document first: SET is refused at maxmemory (noeviction), and a refused first
-- write leaves everything as it was; after one write Redis lets the script finish.
redis.call('SET', KEYS[1], ARGV[2], 'EX', ttl)
local ended = string.match(ARGV[7], '^!(%d+)$')
if ended then redis.call('DEL', KEYS[2]) end
for _ = 1, n do
  redis.call('XADD', KEYS[2], ARGV[i], 'e', ARGV[i + 1])
  i = i + 2
end
if ARGV[7] ~= '' and not ended then redis.call('XTRIM', KEYS[2], 'MINID', ARGV[7]) end
redis.call('EXPIRE', KEYS[2], math.min(ttl, tonumber(ended or ttl)))
local mode = ARGV[5]
-- GET and SET rather than APPEND: APPEND leaves up to as much free room again as the
-- string holds (Redis grows strings greedily), and these strings grow a little per write.
if mode == 'a' then
  redis.call('SET', KEYS[3], (redis.call('GET', KEYS[3]) or '') .. ARGV[4], 'EX', ttl)
elseif mode == 's' then
  redis.call('SET', KEYS[3], ARGV[4], 'EX', ttl)
else
  redis.call('DEL', KEYS[3])
end
if ARGV[6] ~= '' then
  redis.call('SET', KEYS[4], (redis.call('GET', KEYS[4]) or '') .. ARGV[6], 'EX', ttl)
else
  redis.call('EXPIRE', KEYS[4], ttl)
end
local key_at = 5
local due_key = nil
if d == '1' then
  due_key = KEYS[key_at]
  key_at = key_at + 1
end
if k > 0 then
  local outbox = KEYS[key_at]
  key_at = key_at + 1
  for _ = 1, k do
    redis.call('XADD', outbox, '*', 'n', ARGV[i])
    i = i + 1
  end
  redis.call('EXPIRE', outbox, ttl)
  if r == '1' then
    redis.call('XADD', KEYS[key_at], '*', 'g', string.match(outbox, '{(.-)}'))
    key_at = key_at + 1
  end
end
if l == '1' then redis.call('DEL', KEYS[key_at], KEYS[key_at + 1]) end
if due_key then
  if ARGV[i + 1] == '' then
    redis.call('ZREM', due_key, ARGV[i])
  else
    redis.call('ZADD', due_key, ARGV[i + 1], ARGV[i])
  end
end
return {'ok'}
