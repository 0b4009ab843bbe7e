-- The worker's schedule (see shared/store/schedule.py): per shard k, KEYS[1] is the index
-- <p>:sched:{k} (client -> a time no later than the earliest due time of its games) and
-- KEYS[1] .. ':' .. client the client's games (game id -> due ms). Every key a call
-- touches carries the shard's hash tag {k}: one slot, so this runs on Redis Cluster too.
-- claim: KEYS[1] index, KEYS[2] the shard as earlier code kept it (<p>:due:{k}: game id
--   -> due ms, every client's); ARGV 'claim', now ms, lease ms, at most N games, at
--   most M games of one client.
--   First moves up to N entries of KEYS[2] to client '' (the worker moves each to its
--   own client when it puts the game back). Then takes the clients due by now (earliest
--   first) and of each at most M of its games due by now (earliest first), N in all,
--   each pushed to now + lease so that other workers skip it while this one plays it (a
--   worker that dies leaves it due again after the lease); each client's index entry is
--   then set to its earliest due time, or dropped when it has no game left.
--   Returns {client, id, score, ...} with the claimed score (the one to expect in 'set').
-- set: KEYS[1] index, KEYS[2] the client's games (KEYS[1] .. ':' .. client);
--   ARGV 'set', client, game id, expected score, new score ('': remove).
--   Changes the entry only while it still has the expected score: a write that moved
--   the game meanwhile set its own due time, which must win. Returns 1 or 0.
-- lower: KEYS as for set; ARGV 'lower', client, game id, due ms: the entry and the client's index entry
--   moved earlier only (ZADD LT; added if absent). Returns 1.
-- hold: KEYS as for set; ARGV 'hold', client, game id, now ms, until ms: a game the
--   worker's own move made due again, claimed again (pushed to until) while it is still
--   due by now, i.e. no other worker claimed it meanwhile. Returns 1 or 0.
local index = KEYS[1]
if ARGV[1] == 'claim' then
  local now = tonumber(ARGV[2])
  local until_ms = tostring(now + tonumber(ARGV[3]))
  local left = tonumber(ARGV[4])
  local per_client = tonumber(ARGV[5])
  local old = redis.call('ZRANGE', KEYS[2], 0, left - 1, 'WITHSCORES')
  if #old > 0 then
    local moved = {}
    for j = 1, #old, 2 do
      moved[#moved + 1] = old[j + 1]
      moved[#moved + 1] = old[j]
      redis.call('ZREM', KEYS[2], old[j])
    end
    redis.call('ZADD', index .. ':', unpack(moved))
    redis.call('ZADD', index, 'LT', old[2], '')
  end
  local out = {}
  local clients = redis.call('ZRANGEBYSCORE', index, '-inf', now, 'LIMIT', 0, left)
  for _, client in ipairs(clients) do
    if left <= 0 then break end
    local key = index .. ':' .. client
    local due = redis.call(
      'ZRANGEBYSCORE', key, '-inf', now, 'LIMIT', 0, math.min(per_client, left))
    for _, game_id in ipairs(due) do
      redis.call('ZADD', key, until_ms, game_id)
      out[#out + 1] = client
      out[#out + 1] = game_id
      out[#out + 1] = until_ms
    end
    left = left - #due
    local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
    if #first == 0 then
      redis.call('ZREM', index, client)
    else
      redis.call('ZADD', index, first[2], client)
    end
  end
  return out
end
local key = KEYS[2]
if ARGV[1] == 'lower' then
  redis.call('ZADD', key, 'LT', ARGV[4], ARGV[3])
  redis.call('ZADD', index, 'LT', ARGV[4], ARGV[2])
  return 1
end
local score = redis.call('ZSCORE', key, ARGV[3])
if ARGV[1] == 'hold' then
  if not score or tonumber(score) > tonumber(ARGV[4]) then return 0 end
  redis.call('ZADD', key, ARGV[5], ARGV[3])
  return 1
end
if not score or tonumber(score) ~= tonumber(ARGV[4]) then return 0 end
if ARGV[5] == '' then
  redis.call('ZREM', key, ARGV[3])
  if redis.call('EXISTS', key) == 0 then redis.call('ZREM', index, ARGV[2]) end
else
  redis.call('ZADD', key, ARGV[5], ARGV[3])
  redis.call('ZADD', index, 'LT', ARGV[5], ARGV[2])
end
return 1
