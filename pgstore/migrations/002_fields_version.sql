-- A version of each account's field definitions, which every change to its
-- fields or their options replaces with a new number from one sequence, in
-- the transaction of the change. A server that keeps an organization's
-- fields in memory reads the version with an issue's values, in the same
-- query, and so sees a change made through any server at once.
CREATE SEQUENCE fields_versions;

ALTER TABLE accounts ADD COLUMN fields_version bigint NOT NULL DEFAULT nextval('fields_versions');

CREATE FUNCTION bump_fields_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE accounts SET fields_version = nextval('fields_versions') WHERE id = OLD.account_id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        UPDATE accounts SET fields_version = nextval('fields_versions') WHERE id = NEW.account_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER fields_version AFTER INSERT OR UPDATE OR DELETE ON fields
    FOR EACH ROW EXECUTE FUNCTION bump_fields_version();
CREATE TRIGGER field_options_version AFTER INSERT OR UPDATE OR DELETE ON field_options
    FOR EACH ROW EXECUTE FUNCTION bump_fields_version();
