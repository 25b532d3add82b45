-- Field management (issuefields.FieldManager): what the API shows of a field
-- and of an option besides its name, and the largest ID that an
-- organization's fields and options have had, so that no ID is used twice.

ALTER TABLE accounts
    ADD COLUMN last_field_id bigint NOT NULL DEFAULT 0;

ALTER TABLE fields
    ADD COLUMN description text        NOT NULL DEFAULT '',
    ADD COLUMN visibility  text        NOT NULL DEFAULT '' CHECK (visibility IN ('', 'organization_members_only', 'all')),
    ADD COLUMN created_at  timestamptz,
    ADD COLUMN updated_at  timestamptz;

ALTER TABLE field_options
    ADD COLUMN description text    NOT NULL DEFAULT '',
    ADD COLUMN priority    integer NOT NULL DEFAULT 0;
