-- POSTs bench/write.json's ten values to issue 2, alternating the estimate
-- between 5 and 6 so that every write changes the issue and is committed.
local file = io.open(os.getenv("BENCH_WRITE_BODY"), "r")
local body = file:read("*a")
file:close()
local other = body:gsub('"field_id":5,"value":5', '"field_id":5,"value":6')
local n = 0

request = function()
  n = n + 1
  local b = body
  if n % 2 == 0 then b = other end
  return wrk.format("POST", os.getenv("BENCH_WRITE_PATH"), {
    ["Authorization"] = "Bearer bench-token",
    ["Content-Type"] = "application/json",
  }, b)
end
