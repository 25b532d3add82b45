-- Unique names of fields (per organization) and of options (per field),
-- compared by a key that the store computes in Go with the handler's own
-- function (issuefields' internal/fieldname): without invisible characters,
-- NFKC-normalized and case folded, so that two servers cannot both give one
-- name to two fields. A key is NULL until the store writes its row again, and
-- stays NULL for a name written before this step that another field or
-- option already has; a unique index ignores NULLs, so such names keep being
-- served, unchanged.
ALTER TABLE fields ADD COLUMN name_key text;
ALTER TABLE field_options ADD COLUMN name_key text;

CREATE UNIQUE INDEX fields_name_key ON fields (account_id, name_key);
CREATE UNIQUE INDEX field_options_name_key ON field_options (account_id, field_id, name_key);
