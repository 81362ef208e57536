-- wrk: GET /api/v1/products?q=<query>&per_page=20, the query drawn from QUERIES (a file written
-- by bench/gen_queries.py: weight, url-encoded query, query) with its Zipf weight.
local path = os.getenv("QUERIES")
local queries, cumulative, total = {}, {}, 0
for line in io.lines(path) do
  local weight, encoded = line:match("^([^\t]+)\t([^\t]+)\t")
  total = total + tonumber(weight)
  queries[#queries + 1] = encoded
  cumulative[#cumulative + 1] = total
end
local thread_id = 0
setup = function(thread)
  thread_id = thread_id + 1
  thread:set("tid", thread_id)
end
init = function(args)
  math.randomseed(1000 + (tid or 0))
end
request = function()
  local r = math.random() * total
  local low, high = 1, #cumulative
  while low < high do
    local mid = math.floor((low + high) / 2)
    if cumulative[mid] < r then low = mid + 1 else high = mid end
  end
  return wrk.format("GET", "/api/v1/products?q=" .. queries[low] .. "&per_page=20")
end
