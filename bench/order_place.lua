-- wrk: POST /api/v1/orders ("buy now"), a fresh Idempotency-Key per request.
local token = os.getenv("TOKEN")
local sku = os.getenv("SKU") or "1"
local address = os.getenv("ADDRESS") or "1"
local thread_id = 0
local counter = 0
setup = function(thread)
  thread_id = thread_id + 1
  thread:set("tid", thread_id)
end
request = function()
  counter = counter + 1
  local headers = {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. token,
    ["Idempotency-Key"] = "bench-" .. tostring(tid) .. "-" .. tostring(counter) .. "-" .. tostring(os.time()),
  }
  return wrk.format("POST", "/api/v1/orders", headers,
    '{"address_id":' .. address .. ',"items":[{"sku_id":' .. sku .. ',"quantity":1}]}')
end
