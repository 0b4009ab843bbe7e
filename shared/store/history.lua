-- A consistent read of a game's events (see GameStore.events_now): never writes.
-- KEYS: 1 game document, 2 events stream, 3 history tail, 4 history archive.
-- ARGV: 1 XRANGE start (exclusive, '(<id>'), 2 count, 3 the oldest version the reader
--       still needs whole ('all': the document and the history, no stream).
-- Returns {1, stream entries} when the stream still holds what the reader needs (the
-- document stays here: the reader has no use for it), else {document, false, tail,
-- archive}; {false} without a game. A document without
-- "events_from" (written by older code) has its whole stream, and the two old keys
-- (moves list, idempotency hash) are then KEYS 5 and 6: with 'all', {document, false,
-- false, false, stream, moves}.
local doc = redis.call('GET', KEYS[1])
if not doc then return {false} end
local from = tonumber(string.match(doc, '^{"version":%d+,"events_from":(%d+)'))
if ARGV[3] == 'all' then
  if from == nil then
    return {doc, false, false, false, redis.call('XRANGE', KEYS[2], '-', '+'),
            redis.call('LRANGE', KEYS[5], 0, -1)}
  end
  return {doc, false, redis.call('GET', KEYS[3]), redis.call('GET', KEYS[4])}
end
-- (an ended game's stream expires soon after its last write: then the history serves)
if from == nil or from <= 1 or tonumber(ARGV[3]) >= from then
  if from == nil or redis.call('EXISTS', KEYS[2]) == 1 then
    return {1, redis.call('XRANGE', KEYS[2], ARGV[1], '+', 'COUNT', ARGV[2])}
  end
end
return {doc, false, redis.call('GET', KEYS[3]), redis.call('GET', KEYS[4])}
