-- The budgets of the primary rate limit that every server sharing the
-- database shares (RequestCounter): one row per key (a budget's resource
-- and its principal or client address) whose fixed window has not long
-- ended. used is the requests counted in the window, which ends at
-- window_end, by the database's clock. A key without a row, or whose window
-- has ended, has a whole budget; the servers delete the rows of ended
-- windows as they go.
CREATE TABLE request_budgets (
    key        text        PRIMARY KEY,
    used       integer     NOT NULL,
    window_end timestamptz NOT NULL
);

CREATE INDEX request_budgets_window_end ON request_budgets (window_end);

-- count_requests adds counts[i] (0 to read, negative to take back) to the
-- window of budget_keys[i], which lasts periods[i] seconds, starting a new
-- window, with counts[i] requests, when the key's has ended or it has none,
-- and returns each key's count and window end after it. The keys, each at
-- most once, are locked in their order, so that calls that share keys wait
-- for each other instead of deadlocking. The time is the database's clock
-- plus clock_offset, which is zero but in tests.
CREATE FUNCTION count_requests(budget_keys text[], counts integer[], periods double precision[], clock_offset interval)
RETURNS TABLE (budget_key text, used integer, window_end timestamptz)
LANGUAGE sql AS $$
    INSERT INTO request_budgets AS b (key, used, window_end)
        SELECT k, greatest(0, c), clock_timestamp() + clock_offset + make_interval(secs => p)
            FROM unnest(budget_keys, counts, periods) AS u(k, c, p) ORDER BY k
    ON CONFLICT (key) DO UPDATE SET
        used = CASE WHEN b.window_end <= clock_timestamp() + clock_offset THEN excluded.used
                    ELSE greatest(0, b.used + (SELECT c FROM unnest(budget_keys, counts) AS v(k, c) WHERE v.k = b.key)) END,
        window_end = CASE WHEN b.window_end <= clock_timestamp() + clock_offset THEN excluded.window_end
                          ELSE b.window_end END
    RETURNING b.key, b.used, b.window_end
$$;
