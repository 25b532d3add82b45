-- One version of everything, besides the issue itself, that a Snapshot of an
-- issue of a repository owned by the account shows, so that a write from a
-- Snapshot that a server kept checks all of it with one lookup of the
-- owner's row by its primary key, as the bare UPDATE of an issue does: the
-- account's fields and their options (002's fields version becomes this
-- version), its login and whether it is an organization, the name, privacy
-- and owner of each of its repositories, and which repository each
-- owner/name that finds one of them names. Every change to one of them
-- replaces the version with a new number from one sequence, in the
-- transaction of the change. A server that keeps an organization's fields
-- keeps them under this version too: a change of a repository has them read
-- again once.
ALTER TABLE accounts RENAME COLUMN fields_version TO snapshot_version;
ALTER SEQUENCE fields_versions RENAME TO snapshot_versions;

-- Gives each account of account_ids a new snapshot version; a NULL is
-- skipped. The rows are locked in the order of their IDs first, so that two
-- changes that both bump the same two accounts wait for each other instead
-- of deadlocking.
CREATE FUNCTION bump_snapshot_versions(account_ids bigint[]) RETURNS void LANGUAGE sql AS $$
    UPDATE accounts SET snapshot_version = nextval('snapshot_versions')
    WHERE id IN (SELECT id FROM accounts WHERE id = ANY (account_ids) ORDER BY id FOR NO KEY UPDATE)
$$;

-- A field or an option added, changed or removed bumps its account, as 002's
-- triggers did under the old name. OLD is NULL for an INSERT and NEW for a
-- DELETE, and so are their columns.
CREATE OR REPLACE FUNCTION bump_fields_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bump_snapshot_versions(ARRAY[OLD.account_id, NEW.account_id]);
    RETURN NULL;
END
$$;

-- A change of an account's login or of whether it is an organization gives
-- it a new snapshot version in the same row.
CREATE FUNCTION new_snapshot_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.snapshot_version := nextval('snapshot_versions');
    RETURN NEW;
END
$$;

CREATE TRIGGER account_snapshot_version BEFORE UPDATE ON accounts
    FOR EACH ROW
    WHEN ((OLD.login, OLD.organization) IS DISTINCT FROM (NEW.login, NEW.organization))
    EXECUTE FUNCTION new_snapshot_version();

-- A repository added, changed (renamed, made private or public, transferred)
-- or removed bumps its owner before and after.
CREATE FUNCTION bump_repository_owners() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM bump_snapshot_versions(ARRAY[OLD.owner_id, NEW.owner_id]);
    RETURN NULL;
END
$$;

CREATE TRIGGER repository_snapshot_version AFTER INSERT OR UPDATE OR DELETE ON repositories
    FOR EACH ROW EXECUTE FUNCTION bump_repository_owners();

-- An owner/name added, pointed at another repository (a name taken over) or
-- removed bumps the owners of the repositories it named and names. The
-- repositories' rows are locked first: a change of their owner that is not
-- yet committed is waited for, and the owners are then read as it left
-- them, so that the owner a Snapshot can show from then on is the one
-- bumped.
CREATE FUNCTION bump_named_repository_owners() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM FROM repositories WHERE id IN (OLD.repository_id, NEW.repository_id) ORDER BY id FOR SHARE;
    PERFORM bump_snapshot_versions(ARRAY(
        SELECT owner_id FROM repositories WHERE id IN (OLD.repository_id, NEW.repository_id)));
    RETURN NULL;
END
$$;

CREATE TRIGGER repository_name_snapshot_version AFTER INSERT OR UPDATE OR DELETE ON repository_names
    FOR EACH ROW EXECUTE FUNCTION bump_named_repository_owners();
