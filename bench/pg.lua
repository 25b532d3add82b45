-- Requests of bench/postgres.sh to random issues of bench-repo: with
-- BENCH_KIND=list a GET of the issue's values, with BENCH_KIND=write a POST
-- of bench/write.json's ten values whose number (field 5) is new on every
-- request of the connection, so that every write changes the issue.
local kind = os.getenv("BENCH_KIND")
local issues = tonumber(os.getenv("BENCH_ISSUES"))
local file = io.open(os.getenv("BENCH_WRITE_BODY"), "r")
local body = file:read("*a")
file:close()
local headers = { ["Authorization"] = "Bearer bench-token", ["Content-Type"] = "application/json" }
local n = 0

setup = function(thread)
  thread:set("seed", math.random(1, 1000000))
end

init = function()
  math.randomseed(seed)
  n = seed
end

request = function()
  n = n + 1
  local path = "/repos/bench-org/bench-repo/issues/" .. math.random(1, issues) .. "/issue-field-values"
  if kind == "list" then
    return wrk.format("GET", path, headers)
  end
  local b = body:gsub('"field_id":5,"value":5', '"field_id":5,"value":' .. n)
  return wrk.format("POST", path, headers, b)
end
