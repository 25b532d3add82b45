-- Sends BENCH_BODY to BENCH_PATH with BENCH_METHOD. When BENCH_FROM is set,
-- every other request has it replaced by BENCH_TO in the body, so that each
-- write changes the issue and is committed.
local file = io.open(os.getenv("BENCH_BODY"), "r")
local body = file:read("*a")
file:close()
local other = body
local from = os.getenv("BENCH_FROM")
if from and from ~= "" then
  other = body:gsub(from, os.getenv("BENCH_TO"))
end
local method, path = os.getenv("BENCH_METHOD"), os.getenv("BENCH_PATH")
local n = 0

request = function()
  n = n + 1
  local b = body
  if n % 2 == 0 then b = other end
  return wrk.format(method, path, {
    ["Authorization"] = "Bearer bench-token",
    ["Content-Type"] = "application/json",
  }, b)
end
