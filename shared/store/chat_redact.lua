-- An operator deletes a chat message (see shared/store/chat_edits.py): the game's chat
-- stream is written again with that entry's message replaced, every id kept, so the
-- text is gone from Redis and every read (the chat, the events, SSE) serves the
-- placeholder. A stream's entries cannot be edited in place; the stream is short
-- (CHAT_MAX_MESSAGES), so copying it is cheap and atomic here.
-- KEYS: 1 the chat stream. ARGV: 1 the message id, 2 its replacement (JSON).
-- Returns 1, or 0 when the stream has no such entry.
local entries = redis.call('XRANGE', KEYS[1], '-', '+')
local found = false
for _, entry in ipairs(entries) do
  if entry[1] == ARGV[1] then found = true end
end
if not found then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
redis.call('DEL', KEYS[1])
for _, entry in ipairs(entries) do
  if entry[1] == ARGV[1] then
    redis.call('XADD', KEYS[1], entry[1], 'm', ARGV[2])
  else
    redis.call('XADD', KEYS[1], entry[1], unpack(entry[2]))
  end
end
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
