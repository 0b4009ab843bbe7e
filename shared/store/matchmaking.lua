-- Quick match: the pool of open public tables of one set of options (one hash tag, so
-- this runs on Redis Cluster too). KEYS: 1 the pool hash (table id -> seats claimed),
-- 2 the pool's order (sorted set: table id -> creation ms, oldest first), 3 who claimed
-- (hash: player id -> table id, and 't:<table id>' -> the table's players, comma-joined).
-- ARGV 'claim', player id, candidate table id, seats, now ms, oldest creation ms still
--   pooled, ttl seconds, the players it must not meet (comma-joined: its blocks, both
--   ways): the oldest pooled table (of the first 64) where none of the claimers is one
--   of those, nor has the player among its own (kept as 'a:<player>' in who while its
--   claim stands), gets the player (claimed + 1; it leaves the pool when every seat is
--   claimed) -> {'joined', table}; with none, the candidate is pooled with one claim
--   -> {'new', candidate}; a player who holds a claim on a pooled table gets it back,
--   nothing changed -> {'seated', table}.
-- ARGV 'drop', table id: the table leaves the pool (started, gone) -> {'dropped'}.
-- ARGV 'release', table id, player id ('' for none), seats taken now, seats, creation
--   ms, oldest creation ms still pooled, ttl seconds: a player left the open table (or
--   was erased): its claim goes, and the table is pooled again with as many claims as
--   seats taken, unless it is full or too old -> {'released'} or {'kept'}.
local pool, order, who = KEYS[1], KEYS[2], KEYS[3]

local function forget(table_id)
  redis.call('HDEL', pool, table_id)
  redis.call('ZREM', order, table_id)
  local listed = redis.call('HGET', who, 't:' .. table_id)
  if listed then
    for player in string.gmatch(listed, '[^,]+') do
      if redis.call('HGET', who, player) == table_id then
        redis.call('HDEL', who, player, 'a:' .. player)
      end
    end
    redis.call('HDEL', who, 't:' .. table_id)
  end
end

if ARGV[1] == 'drop' then
  forget(ARGV[2])
  return {'dropped'}
end

if ARGV[1] == 'release' then
  local table_id, gone = ARGV[2], ARGV[3]
  if gone ~= '' and redis.call('HGET', who, gone) == table_id then
    redis.call('HDEL', who, gone, 'a:' .. gone)
    local listed = redis.call('HGET', who, 't:' .. table_id)
    if listed then
      local rest = {}
      for player in string.gmatch(listed, '[^,]+') do
        if player ~= gone then rest[#rest + 1] = player end
      end
      if #rest > 0 then
        redis.call('HSET', who, 't:' .. table_id, table.concat(rest, ','))
      else
        redis.call('HDEL', who, 't:' .. table_id)
      end
    end
  end
  local taken, seats, created = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
  if taken >= seats or created < tonumber(ARGV[7]) then return {'kept'} end
  redis.call('HSET', pool, table_id, taken)
  redis.call('ZADD', order, created, table_id)
  for _, key in ipairs({pool, order, who}) do redis.call('EXPIRE', key, ARGV[8]) end
  return {'released'}
end

local player, candidate, seats = ARGV[2], ARGV[3], tonumber(ARGV[4])
local now, oldest, ttl, avoid = ARGV[5], ARGV[6], ARGV[7], ARGV[8] or ''
local avoided = {}
for other in string.gmatch(avoid, '[^,]+') do avoided[other] = true end
for _, stale in ipairs(redis.call('ZRANGEBYSCORE', order, '-inf', '(' .. oldest)) do
  forget(stale)  -- its game expires soon (or has): nobody should wait for it
end
local held = redis.call('HGET', who, player)
if held and redis.call('ZSCORE', order, held) then return {'seated', held} end

local function claim(table_id)
  redis.call('HSET', who, player, table_id)
  if avoid ~= '' then redis.call('HSET', who, 'a:' .. player, avoid) end
  local listed = redis.call('HGET', who, 't:' .. table_id)
  redis.call('HSET', who, 't:' .. table_id, listed and (listed .. ',' .. player) or player)
  for _, key in ipairs({pool, order, who}) do redis.call('EXPIRE', key, ttl) end
end

local function welcome(table_id)  -- nobody there blocks the player or is blocked by it
  local listed = redis.call('HGET', who, 't:' .. table_id)
  if not listed then return true end
  for other in string.gmatch(listed, '[^,]+') do
    if avoided[other] then return false end
    local theirs = redis.call('HGET', who, 'a:' .. other)
    if theirs and string.find(',' .. theirs .. ',', ',' .. player .. ',', 1, true) then
      return false
    end
  end
  return true
end

local oldest_open = nil
for _, table_id in ipairs(redis.call('ZRANGE', order, 0, 63)) do
  if welcome(table_id) then oldest_open = table_id break end
end
if oldest_open then
  local claimed = redis.call('HINCRBY', pool, oldest_open, 1)
  claim(oldest_open)
  if claimed >= seats then forget(oldest_open) end
  return {'joined', oldest_open}
end
redis.call('HSET', pool, candidate, 1)
redis.call('ZADD', order, now, candidate)
claim(candidate)
return {'new', candidate}
