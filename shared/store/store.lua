-- One atomic compare-and-set write of a game (see shared/store/documents.py).
-- KEYS: 1 game document, 2 events stream, 3 history tail, 4 history archive, then,
--       flagged by ARGV[8]: the schedule's due times of the game's client and their
--       shard's index of clients (single Redis only: on Cluster they are in another
--       slot), the webhook outbox stream, the webhook ready-stream shard
--       (single Redis only), and the two keys of a game written by older code (its
--       moves list and idempotency hash, deleted once migrated), then M quadruples
--       of a player's indexes of its games (all, live, the ended games of one status,
--       and the time since which that index is kept; single Redis only), and last,
--       always, the game's chat stream and mutes hash (their expiry follows the
--       game's: shared/store/chat.py). All but the shards and the players' indexes
--       share the game's {id} hash tag, so this also runs on Redis Cluster.
-- ARGV: 1 expected version (0: the game must not exist yet), 2 new document,
--       3 ttl seconds, 4 tail text, 5 tail mode ('a': append ARGV[4], 's': set the tail
--       to it, 'd': delete the tail), 6 archive lines to append ('': none), 7 the
--       stream's cap: '' (none), 'F:B' (keep the entries of versions >= F, and of those
--       only the newest whose sizes, this write's included, add up to at most B bytes:
--       always this write's; the document's "events_from" is raised to match) or
--       '!<s>' (the game ended: a new stream with this write's entry only, expiring
--       after s seconds: it wakes the readers waiting now, later ones get the events
--       rebuilt from the history), 8 'N:K:D:R:L:M' (N stream entries, K webhook
--       notifications, D 1 with the two schedule keys, R 1 with a ready key, L 1 with
--       the two old keys to delete, M players' indexes; ':M' may be left out; then,
--       optionally, ':W': a delayed game's ring, 'p<n>', 'e' or 'd', its key after the
--       old keys), then N pairs (entry id, field 'w': the write's
--       events as a JSON list), K notification jsons, and with D the game id, its due
--       time in ms ('': not due, removed) and its client (the index entry is only ever
--       lowered here: the worker raises it when it finds the client has nothing due),
--       and with M > 0 the game id, the time in ms and M flags ('1': the game is live
--       for the player: in its live index too; 'e': ended, out of the live index and in
--       the ended index of its status; '0': out of the live index).
-- Returns {'ok', events_from} ('F:B') | {'ok'} | {'conflict', current version, current
-- document, current tail} ({'conflict', 'exists'} for a create) | {'missing'}.
-- Every check comes before the first write, so a refused call changes nothing.
local expected = tonumber(ARGV[1])
-- Only the document's head: the whole of it would be copied into Lua for one number.
local current = redis.call('GETRANGE', KEYS[1], 0, 31)
if expected == 0 then
  if current ~= '' then return {'conflict', 'exists'} end
else
  if current == '' then return {'missing'} end
  local version = string.match(current, '^{"version":(%d+),')
  if version == nil then version = cjson.decode(redis.call('GET', KEYS[1]))['version'] end
  if tonumber(version) ~= expected then
    -- the current game comes back: the caller decides again without another read
    return {'conflict', tostring(version), redis.call('GET', KEYS[1]), redis.call('GET', KEYS[3])}
  end
end
local ttl = ARGV[3]
-- (numbers are kept as the caller's text where Redis takes them: no formatting)
local n, k, d, r, l, m, w, w_keep = string.match(
  ARGV[8], '^(%d+):(%d+):(%d):(%d):(%d):?(%d*):?(%a?)(%d*)$')
m = tonumber(m) or 0
n = tonumber(n)
k = tonumber(k)
local i = 9
local doc = ARGV[2]
local ended = string.match(ARGV[7], '^!(%d+)$')
local from_text, budget = string.match(ARGV[7], '^(%d+):(%d+)$')
local from, asked = nil, nil
local kept, rebuild = nil, false
if from_text then
  -- Reads only, before the first write. The stream is rebuilt from the kept entries
  -- when it holds others: XTRIM would leave a partly trimmed node's deleted entries.
  from, budget = tonumber(from_text), tonumber(budget)
  asked = from
  local size = 0
  for j = i, i + 2 * n - 1 do size = size + #ARGV[j] end
  local older = redis.call('XREVRANGE', KEYS[2], '+', from_text .. '-0')
  kept = {}
  for _, entry in ipairs(older) do
    for _, part in ipairs(entry[2]) do size = size + #part end
    size = size + #entry[1]
    if size > budget then
      from = tonumber(string.match(entry[1], '^%d+')) + 1
      break
    end
    kept[#kept + 1] = entry
  end
  -- (entries of one event each, written by older code, may share the cut version)
  while #kept > 0 and tonumber(string.match(kept[#kept][1], '^%d+')) < from do
    kept[#kept] = nil
  end
  rebuild = redis.call('XLEN', KEYS[2]) > #kept
  if from ~= asked then
    doc = (string.gsub(doc, '^({"version":%d+,"events_from":)%d+', '%1' .. from, 1))
  end
end
-- The document first: SET is refused at maxmemory (noeviction), and a refused first
-- write leaves everything as it was; after one write Redis lets the script finish.
redis.call('SET', KEYS[1], doc, 'EX', ttl)
if ended or rebuild then redis.call('DEL', KEYS[2]) end
if rebuild then
  for j = #kept, 1, -1 do redis.call('XADD', KEYS[2], kept[j][1], unpack(kept[j][2])) end
end
for _ = 1, n do
  redis.call('XADD', KEYS[2], ARGV[i], 'w', ARGV[i + 1])
  i = i + 2
end
redis.call('EXPIRE', KEYS[2], ended and math.min(tonumber(ttl), tonumber(ended)) or ttl)
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
local due_key, clients_key = nil, nil
if d == '1' then
  due_key, clients_key = KEYS[key_at], KEYS[key_at + 1]
  key_at = key_at + 2
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
if l == '1' then
  redis.call('DEL', KEYS[key_at], KEYS[key_at + 1])
  key_at = key_at + 2
end
if w ~= '' then
  -- A delayed game's ring of documents (shared/games/spectate.py): the document just
  -- written pushed and the ring trimmed to its last w_keep ('p'), kept alive ('e') or
  -- deleted once the game ended ('d').
  local ring = KEYS[key_at]
  key_at = key_at + 1
  if w == 'p' then
    redis.call('LPUSH', ring, doc)
    redis.call('LTRIM', ring, 0, tonumber(w_keep) - 1)
  end
  if w == 'd' then redis.call('DEL', ring) else redis.call('EXPIRE', ring, ttl) end
end
local j = due_key and i + 3 or i
if due_key then
  if ARGV[i + 1] == '' then
    redis.call('ZREM', due_key, ARGV[i])
  else
    redis.call('ZADD', due_key, ARGV[i + 1], ARGV[i])
    redis.call('ZADD', clients_key, 'LT', ARGV[i + 1], ARGV[i + 2])
  end
end
if m > 0 then
  -- Each player's index of its games: the game at now, in or out of the live ones,
  -- an ended game in the index of its status ('since': '0' when every ended game of
  -- the player is in those, else the time from which they are kept); each index
  -- lives as long as its longest-lived game.
  local game, now = ARGV[j], ARGV[j + 1]
  for q = 0, m - 1 do
    local at = key_at + 4 * q
    local every, live, ended, since = KEYS[at], KEYS[at + 1], KEYS[at + 2], KEYS[at + 3]
    if redis.call('EXISTS', since) == 0 then
      redis.call('SET', since, redis.call('EXISTS', every) == 1 and now or '0')
    end
    redis.call('ZADD', every, now, game)
    local flag = ARGV[j + 2 + q]
    if flag == '1' then
      redis.call('ZADD', live, now, game)
    else
      redis.call('ZREM', live, game)
    end
    if flag == 'e' then redis.call('ZADD', ended, now, game) end
    for _, key in ipairs({every, live, ended, since}) do
      if redis.call('TTL', key) < tonumber(ttl) then redis.call('EXPIRE', key, ttl) end
    end
  end
end
-- The chat and the mutes live as long as the game (EXPIRE of a missing key: nothing).
redis.call('EXPIRE', KEYS[#KEYS - 1], ttl)
redis.call('EXPIRE', KEYS[#KEYS], ttl)
if from then return {'ok', from == asked and from_text or tostring(from)} end
return {'ok'}
