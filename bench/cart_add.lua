-- wrk: POST /api/v1/cart/items, adding then removing keeps the cart under its cap.
-- One buyer (TOKEN, SKU from the environment; bench/run.sh sets them), or with BUYERS
-- ("token,address,sku;...") the requests spread over many buyers, each adding its own SKU: one
-- buyer's cart changes are queued on that buyer's lock, so the one-buyer row measures the lock.
local token = os.getenv("TOKEN")
local sku = os.getenv("SKU") or "1"
local buyers = {}
for entry in string.gmatch(os.getenv("BUYERS") or "", "[^;]+") do
  local t, a, s = string.match(entry, "^([^,]+),([^,]+),([^,]+)$")
  if t then table.insert(buyers, {token = t, sku = s}) end
end
local thread_id = 0
local n = 0
setup = function(thread)
  thread_id = thread_id + 1
  thread:set("tid", thread_id)
end
request = function()
  n = n + 1
  local who = {token = token, sku = sku}
  if #buyers > 0 then
    -- an add and then a clear for each buyer in turn; the two threads start half the list apart
    who = buyers[((tid - 1) * math.floor(#buyers / 2) + math.floor((n - 1) / 2)) % #buyers + 1]
  end
  local headers = {["Authorization"] = "Bearer " .. who.token}
  if n % 2 == 0 then
    return wrk.format("DELETE", "/api/v1/cart", headers, nil)
  end
  headers["Content-Type"] = "application/json"
  return wrk.format("POST", "/api/v1/cart/items", headers, '{"sku_id":' .. who.sku .. ',"quantity":1}')
end
