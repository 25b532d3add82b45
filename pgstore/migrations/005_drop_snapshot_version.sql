-- Writes check the version of the issue they change, and nothing else, so
-- the snapshot version of 004 has no reader: its triggers, functions, column
-- and sequence go, so that no change to accounts, repositories or
-- repository_names pays for them. The fields' version of 002 stays.
DROP TRIGGER repository_names_emptied ON repository_names;
DROP TRIGGER repository_name_snapshot_version ON repository_names;
DROP TRIGGER repository_snapshot_version ON repositories;
DROP TRIGGER account_snapshot_version ON accounts;

DROP FUNCTION bump_every_snapshot_version();
DROP FUNCTION bump_named_repository_owners();
DROP FUNCTION bump_repository_owners();
DROP FUNCTION new_snapshot_version();
DROP FUNCTION bump_snapshot_versions(bigint[]);

ALTER TABLE accounts DROP COLUMN snapshot_version;
DROP SEQUENCE snapshot_versions;
