-- wrk: POST /api/v1/cart/items, adding then removing keeps the cart under its cap.
-- TOKEN and SKU come from the environment (bench/run.sh sets them).
local token = os.getenv("TOKEN")
local sku = os.getenv("SKU") or "1"
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. token
wrk.body = '{"sku_id":' .. sku .. ',"quantity":1}'
local n = 0
request = function()
  n = n + 1
  if n % 2 == 0 then
    return wrk.format("DELETE", "/api/v1/cart", {["Authorization"] = "Bearer " .. token}, nil)
  end
  return wrk.format(nil, "/api/v1/cart/items")
end
