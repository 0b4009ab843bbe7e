-- A game's chat (see shared/store/chat.py): a message appended, or a reader's mutes
-- changed, atomically with a look at the game.
-- KEYS: 1 game document, 2 chat stream, 3 mutes hash (one {id} hash tag).
-- ARGV[1] 'post': ARGV[2] the message (JSON, without its id and version), ARGV[3] the
--   most messages kept (older ones trimmed). The message's id is '<v>-<2^32 + j>', v
--   the game's version now, j counting from 0 within v: after the game's events of v
--   ('<v>-<n>') and before those of v + 1, so one cursor reads both streams.
--   Returns {id}.
-- ARGV[1] 'mute' | 'unmute': ARGV[2] the muter, ARGV[3] the target, ARGV[4] the most
--   targets a muter keeps. Returns {1, targets (space-separated)} | {false, 'full'}.
-- ARGV[1] 'rewrite': ARGV[2] a muter whose mutes go, then pairs (message id, its new
--   JSON): the stream rebuilt with those messages replaced (others, those sent since
--   included, as they are). Returns {1}.
-- Any: {false} without a game. Both keys expire with the game (its PTTL now; the
-- game's own writes keep them in step: store.lua).
local head = redis.call('GETRANGE', KEYS[1], 0, 31)
if head == '' then return {false} end
local ttl = redis.call('PTTL', KEYS[1])
if ARGV[1] == 'post' then
  local version = string.match(head, '^{"version":(%d+),')
  if version == nil then
    version = string.format('%d', cjson.decode(redis.call('GET', KEYS[1]))['version'])
  end
  local seq = 4294967296
  local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
  if #last > 0 then
    local v, n = string.match(last[1][1], '^(%d+)-(%d+)$')
    if v == version and tonumber(n) >= seq then seq = tonumber(n) + 1 end
  end
  local id = version .. '-' .. string.format('%d', seq)
  redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[3], id, 'm', ARGV[2])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
  return {id}
end
if ARGV[1] == 'rewrite' then
  redis.call('HDEL', KEYS[3], ARGV[2])
  if #ARGV < 3 then return {1} end
  local new = {}
  for j = 3, #ARGV, 2 do new[ARGV[j]] = ARGV[j + 1] end
  local entries = redis.call('XRANGE', KEYS[2], '-', '+')
  if #entries == 0 then return {1} end
  redis.call('DEL', KEYS[2])
  for _, entry in ipairs(entries) do
    redis.call('XADD', KEYS[2], entry[1], 'm', new[entry[1]] or entry[2][2])
  end
  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
  return {1}
end
local muter, target, mute = ARGV[2], ARGV[3], ARGV[1] == 'mute'
local kept, found = {}, false
for t in string.gmatch(redis.call('HGET', KEYS[3], muter) or '', '%S+') do
  if t == target then found = true end
  if t ~= target or mute then kept[#kept + 1] = t end
end
if mute and not found then
  if #kept >= tonumber(ARGV[4]) then return {false, 'full'} end
  kept[#kept + 1] = target
end
if #kept == 0 then
  redis.call('HDEL', KEYS[3], muter)
else
  redis.call('HSET', KEYS[3], muter, table.concat(kept, ' '))
end
if ttl > 0 then redis.call('PEXPIRE', KEYS[3], ttl) end
return {1, table.concat(kept, ' ')}
