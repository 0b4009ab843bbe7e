-- Count one game for one player's rating, once (see shared/store/ratings.py).
-- KEYS: 1 the player's registry hash, 2 its set of games counted (same hash tag).
-- ARGV: 1 the game's key in that set (<game>:<game id>), 2 the game's name (field
--       prefix), 3 now (ms), 4 drop counted games older than this (ms), 5-6 mu and
--       sigma before, 7-8 mu and sigma after, 9 the win share.
-- Returns {mu, sigma, games} as set, or false when the game was counted already or
-- the player is gone (deleted).
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return false end
if redis.call('HEXISTS', KEYS[1], 'key') == 0 then return false end
local g = ARGV[2]
local mu, sigma = tonumber(ARGV[7]), tonumber(ARGV[8])
local cur_mu = redis.call('HGET', KEYS[1], g .. ':mu')
local cur_sigma = redis.call('HGET', KEYS[1], g .. ':sigma')
if cur_mu and (tonumber(cur_mu) ~= tonumber(ARGV[5]) or tonumber(cur_sigma) ~= tonumber(ARGV[6])) then
  -- another game counted since "before" was read: move by this game's difference
  mu = tonumber(cur_mu) + (mu - tonumber(ARGV[5]))
  sigma = tonumber(cur_sigma) * (sigma / tonumber(ARGV[6]))
end
local n = redis.call('HINCRBY', KEYS[1], g .. ':n', 1)
redis.call('HINCRBYFLOAT', KEYS[1], g .. ':won', ARGV[9])
local mu_text, sigma_text = string.format('%.17g', mu), string.format('%.17g', sigma)
redis.call('HSET', KEYS[1], g .. ':mu', mu_text, g .. ':sigma', sigma_text)
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
return {mu_text, sigma_text, n}
