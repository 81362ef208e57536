-- wrk: POST /api/v1/orders ("buy now"), a fresh Idempotency-Key per request.
-- One buyer (TOKEN, ADDRESS, SKU), or with BUYERS ("token,address,sku;..."), requests spread over
-- many buyers in turn, each buying its own SKU.
local token = os.getenv("TOKEN")
local sku = os.getenv("SKU") or "1"
local address = os.getenv("ADDRESS") or "1"
local buyers = {}
for entry in string.gmatch(os.getenv("BUYERS") or "", "[^;]+") do
  local t, a, s = string.match(entry, "^([^,]+),([^,]+),([^,]+)$")
  if t then table.insert(buyers, {token = t, address = a, sku = s}) end
end
local thread_id = 0
local counter = 0
setup = function(thread)
  thread_id = thread_id + 1
  thread:set("tid", thread_id)
end
request = function()
  counter = counter + 1
  local who = {token = token, address = address, sku = sku}
  if #buyers > 0 then
    -- the two threads start half the list apart, so their connections rarely share a buyer
    who = buyers[((tid - 1) * math.floor(#buyers / 2) + counter) % #buyers + 1]
  end
  local headers = {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. who.token,
    ["Idempotency-Key"] = "bench-" .. tostring(tid) .. "-" .. tostring(counter) .. "-" .. tostring(os.time()),
  }
  return wrk.format("POST", "/api/v1/orders", headers,
    '{"address_id":' .. who.address .. ',"items":[{"sku_id":' .. who.sku .. ',"quantity":1}]}')
end
