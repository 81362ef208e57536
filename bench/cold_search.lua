-- wrk: cold search. GET /api/v1/products?q=<query>&per_page=20 for each query of QUERIES (a file of
-- bench/gen_cold_queries.py: weight, url-encoded query, query) exactly once across the run: thread
-- t of THREADS (set it to wrk's -t) asks lines t, t + THREADS, t + 2*THREADS, ... in file order and
-- stops when its share is done, so no query is asked twice and the run ends with the file (give
-- -d long enough: wrk's req/s is then over the time the queries took).
--
--   QUERIES=queries.txt THREADS=2 wrk -t2 -c32 -d120s --latency -s bench/cold_search.lua http://127.0.0.1:8080/api/v1/products
local path = os.getenv("QUERIES")
local threads = tonumber(os.getenv("THREADS") or "2")
local thread_id = 0
setup = function(thread)
  thread_id = thread_id + 1
  thread:set("tid", thread_id)
end

local mine, next_index, answered = {}, 1, 0
init = function(args)
  local line_number = 0
  for line in io.lines(path) do
    line_number = line_number + 1
    if (line_number - 1) % threads == tid - 1 then
      mine[#mine + 1] = line:match("^[^\t]*\t([^\t]+)")
    end
  end
end

request = function()
  local encoded = mine[next_index]
  if encoded == nil then
    -- The share is asked (the other connections' last answers are on their way): a harmless
    -- request until the thread stops, never counted as a query.
    return wrk.format("GET", "/healthz")
  end
  next_index = next_index + 1
  return wrk.format("GET", wrk.path .. "?q=" .. encoded .. "&per_page=20")
end

response = function(status, headers, body)
  if body:sub(1, 10) == '{"status"' then return end -- a /healthz filler
  answered = answered + 1
  if answered >= #mine then wrk.thread:stop() end
end

done = function(summary, latency, requests)
  io.write(string.format("cold search: %d requests, %d non-2xx/3xx, %d socket errors\n", summary.requests,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
