-- wrk: cold search. GET /api/v1/products?q=<query>&per_page=20 for each query of QUERIES (a file of
-- bench/gen_cold_queries.py: weight, url-encoded query, query) exactly once across the run: thread
-- t of THREADS (set it to wrk's -t) asks lines t, t + THREADS, t + 2*THREADS, ... in file order and
-- stops when its share is done, so no query is asked twice. wrk itself still waits out -d and
-- divides by it: read the "cold search:" line this script prints, whose req/s is over the time from
-- the first request to the last answer (give -d long enough for the whole file; the line says
-- when some queries were not asked). Latencies in wrk's own table are the queries' (plus at most
-- one /healthz per connection at the end).
--
--   QUERIES=queries.txt THREADS=2 wrk -t2 -c32 -d120s --latency -s bench/cold_search.lua http://127.0.0.1:8080/api/v1/products
local path = os.getenv("QUERIES")
local threads = tonumber(os.getenv("THREADS") or "2")
-- A wall clock in seconds (wrk runs LuaJIT: clock_gettime through its FFI).
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } cold_timespec;
  int clock_gettime(int clock, cold_timespec *out);
]]
local function now()
  local t = ffi.new("cold_timespec")
  ffi.C.clock_gettime(1, t) -- CLOCK_MONOTONIC
  return tonumber(t.tv_sec) + tonumber(t.tv_nsec) / 1e9
end

local threads_seen = {}
local thread_id = 0
setup = function(thread)
  thread_id = thread_id + 1
  thread:set("tid", thread_id)
  threads_seen[#threads_seen + 1] = thread
end

local mine, next_index, answered, fillers = {}, 1, 0, 0
init = function(args)
  local line_number = 0
  for line in io.lines(path) do
    line_number = line_number + 1
    if (line_number - 1) % threads == tid - 1 then
      mine[#mine + 1] = line:match("^[^\t]*\t([^\t]+)")
    end
  end
end

-- wrk calls the first thread's request() once before the run to check it, and sends nothing.
local checked = false
request = function()
  if tid == 1 and not checked then
    checked = true
    return wrk.format("GET", "/healthz")
  end
  local encoded = mine[next_index]
  if encoded == nil then
    -- The share is asked (the other connections' last answers are on their way): a harmless
    -- request until the thread stops, never counted as a query.
    return wrk.format("GET", "/healthz")
  end
  if next_index == 1 then wrk.thread:set("started", now()) end
  next_index = next_index + 1
  return wrk.format("GET", wrk.path .. "?q=" .. encoded .. "&per_page=20")
end

response = function(status, headers, body)
  if body:sub(1, 9) == '{"status"' then
    -- A /healthz filler: its connection had its last query answered. (A query whose connection
    -- broke is never answered: the thread stops once 64 fillers have come back.)
    fillers = fillers + 1
  else
    answered = answered + 1
  end
  wrk.thread:set("answered", answered)
  wrk.thread:set("share", #mine)
  if answered >= #mine or fillers >= 64 then
    if wrk.thread:get("finished") == nil then wrk.thread:set("finished", now()) end
    wrk.thread:stop()
  end
end

done = function(summary, latency, requests)
  local first, last, answered, share = math.huge, 0, 0, 0
  for _, thread in ipairs(threads_seen) do
    first = math.min(first, thread:get("started") or math.huge)
    last = math.max(last, thread:get("finished") or now())
    answered = answered + (thread:get("answered") or 0)
    share = share + (thread:get("share") or 0)
  end
  local seconds = last - first
  io.write(string.format("cold search: %d of %d queries answered in %.2f s: %.0f req/s; %d non-2xx/3xx, %d socket errors\n",
    answered, share, seconds, answered / seconds, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
