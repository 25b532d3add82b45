-- The issue as a record (issuefields.Issue): its ID and its own fields
-- beside its values, and the largest issue number that each repository has
-- had, so that a create takes the next number atomically on every server.

-- IDs are given by one sequence, below 2^31 (GraphQL's databaseId is a
-- 32-bit Int); emptying the store restarts it, so that a reset loads the
-- data again under the same IDs. A transferred issue's ID moves with it: the
-- row it left keeps the ID, no longer live, so the index is not unique.
CREATE SEQUENCE issue_ids AS integer;

ALTER TABLE issues
    ADD COLUMN id           bigint,
    ADD COLUMN title        text   NOT NULL DEFAULT '',
    ADD COLUMN body         text   NOT NULL DEFAULT '',
    -- issue_state is the issue's "open" or "closed"; state says whether
    -- the row is live, deleted or transferred.
    ADD COLUMN issue_state  text   NOT NULL DEFAULT '',
    ADD COLUMN state_reason text   NOT NULL DEFAULT '',
    ADD COLUMN labels       text[] NOT NULL DEFAULT '{}',
    ADD COLUMN assignees    text[] NOT NULL DEFAULT '{}',
    ADD COLUMN author       text   NOT NULL DEFAULT '',
    ADD COLUMN created_at   timestamptz,
    ADD COLUMN updated_at   timestamptz,
    ADD COLUMN closed_at    timestamptz;

UPDATE issues SET id = numbered.id
FROM (SELECT repository_id, number, nextval('issue_ids') AS id
      FROM (SELECT repository_id, number FROM issues ORDER BY repository_id, number) ordered) numbered
WHERE issues.repository_id = numbered.repository_id AND issues.number = numbered.number;

ALTER TABLE issues
    ALTER COLUMN id SET DEFAULT nextval('issue_ids'),
    ALTER COLUMN id SET NOT NULL;

CREATE INDEX issues_id ON issues (id);

-- A repository's next issue number is one above last_issue_number, which a
-- create raises in the row of the repository: concurrent creates wait for
-- each other there, and one that fails leaves it as it was. Raising it is no
-- change of what a Snapshot shows, so the owner's snapshot version (step
-- 10) is bumped only by a change of the columns that a Snapshot reads.
ALTER TABLE repositories ADD COLUMN last_issue_number bigint NOT NULL DEFAULT 0;

DROP TRIGGER repository_snapshot_version ON repositories;
CREATE TRIGGER repository_snapshot_version AFTER INSERT OR DELETE OR UPDATE OF owner_id, name, name_key, private ON repositories
    FOR EACH ROW EXECUTE FUNCTION bump_repository_owners();

UPDATE repositories r SET last_issue_number = coalesce((SELECT max(number) FROM issues i WHERE i.repository_id = r.id), 0);
