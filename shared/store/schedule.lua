-- The worker's two operations on one due-time shard (a sorted set: game id -> due ms).
-- One key each, so they run on Redis Cluster too (see shared/store/__init__.py).
-- claim: KEYS[1] shard; ARGV 'claim', now ms, lease ms, at most N.
--   Games due by now, each pushed to now + lease so that other workers skip it while
--   this one plays it (a worker that dies leaves it due again after the lease).
--   Returns {id, score, ...} with the claimed score (the one to expect in 'set').
-- set: KEYS[1] shard; ARGV 'set', game id, expected score, new score ('' : remove).
--   Changes the entry only while it still has the expected score: a write that moved
--   the game meanwhile set its own due time, which must win. Returns 1 or 0.
if ARGV[1] == 'claim' then
  local now = tonumber(ARGV[2])
  local until_ms = now + tonumber(ARGV[3])
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[4]))
  local out = {}
  for _, game_id in ipairs(due) do
    redis.call('ZADD', KEYS[1], until_ms, game_id)
    out[#out + 1] = game_id
    out[#out + 1] = tostring(until_ms)
  end
  return out
end
local score = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not score or tonumber(score) ~= tonumber(ARGV[3]) then return 0 end
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[1], ARGV[2])
else
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[2])
end
return 1
