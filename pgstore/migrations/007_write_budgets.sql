-- The budgets of the secondary rate limit that every server sharing the
-- database shares (WriteLimiter): one row per key, a principal's
-- "<token kind>:<login>", whose budget is not full. Each limit is a token
-- bucket of the handler's WriteLimits: as many writes at once as its count,
-- refilling evenly at its count per period (a minute, an hour). A column
-- holds the writes left of its limit at computed_at, by the database's
-- clock; NULL is a full bucket, or a limit that is off. A key without a row
-- has a full budget, so a row may go once full_at has passed, when every
-- bucket is full again; the servers delete such rows as they go.
CREATE TABLE write_budgets (
    key         text             PRIMARY KEY,
    per_minute  double precision,
    per_hour    double precision,
    computed_at timestamptz      NOT NULL,
    full_at     timestamptz      NOT NULL
);

CREATE INDEX write_budgets_full_at ON write_budgets (full_at);

-- write_budget_at returns what a bucket of lim writes per period (in
-- seconds) holds at the time as_of, when it held remaining at since: what it
-- refilled since then added, up to lim. A NULL remaining is a full bucket;
-- a NULL lim, a limit that is off, gives NULL.
CREATE FUNCTION write_budget_at(remaining double precision, since timestamptz, as_of timestamptz,
                                lim integer, period double precision) RETURNS double precision
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN lim IS NULL THEN NULL
        WHEN remaining IS NULL THEN lim
        ELSE least(lim, remaining + greatest(0, extract(epoch FROM as_of - since)::double precision) * lim / period)
    END
$$;

-- lease_writes settles leases of the budgets of budget_keys: for each key,
-- it gives back the writes of give_back that a server leased and did not
-- spend, then takes up to wanted writes, as many as every bucket of the key
-- holds whole, and returns how many it granted and, when it granted none of
-- the wanted writes, how many seconds until every bucket holds one again.
-- The keys are locked in their order, so that calls that share keys wait
-- for each other instead of deadlocking. A key without a row has a full
-- budget: a take creates its row, and a give-back leaves it full. The time
-- is the database's clock plus clock_offset, which is zero but in tests;
-- minute_limit and hour_limit are the limits' counts, NULL when off.
CREATE FUNCTION lease_writes(budget_keys text[], give_back integer[], wanted integer[], clock_offset interval,
                             minute_limit integer, hour_limit integer)
RETURNS TABLE (budget_key text, granted integer, wait_seconds double precision)
LANGUAGE plpgsql AS $$
DECLARE
    returned    integer;
    asked       integer;
    minute_left double precision;
    hour_left   double precision;
    since       timestamptz;
    as_of       timestamptz;
BEGIN
    FOR budget_key, returned, asked IN
        SELECT k, r, w FROM unnest(budget_keys, give_back, wanted) AS u(k, r, w) ORDER BY k
    LOOP
        granted := 0;
        wait_seconds := NULL;
        LOOP
            SELECT b.per_minute, b.per_hour, b.computed_at INTO minute_left, hour_left, since
                FROM write_budgets b WHERE b.key = budget_key FOR UPDATE;
            EXIT WHEN FOUND OR asked = 0;
            -- A full budget, locked by this transaction once inserted; the
            -- loop locks the row of a concurrent insert instead.
            INSERT INTO write_budgets (key, computed_at, full_at)
                VALUES (budget_key, clock_timestamp() + clock_offset, clock_timestamp() + clock_offset)
                ON CONFLICT (key) DO NOTHING;
        END LOOP;
        IF FOUND THEN
            as_of := greatest(since, clock_timestamp() + clock_offset);
            minute_left := least(minute_limit, write_budget_at(minute_left, since, as_of, minute_limit, 60) + returned);
            hour_left := least(hour_limit, write_budget_at(hour_left, since, as_of, hour_limit, 3600) + returned);
            granted := greatest(0, least(asked, floor(minute_left), floor(hour_left)));
            minute_left := minute_left - granted;
            hour_left := hour_left - granted;
            IF granted = 0 AND asked > 0 THEN
                wait_seconds := greatest((1 - minute_left) * 60 / minute_limit, (1 - hour_left) * 3600 / hour_limit);
            END IF;
            UPDATE write_budgets SET per_minute = minute_left, per_hour = hour_left, computed_at = as_of,
                full_at = as_of + make_interval(secs => greatest(0,
                    (minute_limit - minute_left) * 60 / minute_limit, (hour_limit - hour_left) * 3600 / hour_limit))
                WHERE key = budget_key;
        END IF;
        RETURN NEXT;
    END LOOP;
END
$$;
