-- Emptying the store (Store.Empty) for a reset, which loads data again under
-- the same repository IDs and issue numbers as before it.

-- A new issue takes its first version from one sequence, which emptying
-- first moves past every version that an issue had, so that a version of an
-- issue, and so an ETag or the values that a server keeps under it, is never
-- given again after a reset. Writes go on adding one to the row's version.
CREATE SEQUENCE issue_versions OWNED BY issues.version;

ALTER TABLE issues ALTER COLUMN version SET DEFAULT nextval('issue_versions');

-- How many times the store was emptied: every server's write limiter reads
-- it, and forgets the leases it took before a reset through any server.
CREATE TABLE resets (
    count bigint NOT NULL
);

INSERT INTO resets (count) VALUES (0);
