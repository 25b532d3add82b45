-- The tables of an issuefields store. Owners and repository names are looked
-- up by keys that the store lower-cases in Go, so that matching is the same
-- whatever the database's collation.

-- Organizations and users. A user account is created the first time a
-- repository is given to it.
CREATE TABLE accounts (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    login        text    NOT NULL CHECK (login <> ''),
    login_key    text    NOT NULL UNIQUE,
    organization boolean NOT NULL
);

-- The issue fields of organizations, in each organization's order.
CREATE TABLE fields (
    account_id bigint  NOT NULL REFERENCES accounts (id),
    id         bigint  NOT NULL CHECK (id > 0),
    position   integer NOT NULL,
    name       text    NOT NULL CHECK (name <> ''),
    data_type  text    NOT NULL CHECK (data_type IN ('text', 'single_select', 'multi_select', 'number', 'date')),
    PRIMARY KEY (account_id, id),
    UNIQUE (account_id, position),
    UNIQUE (account_id, name)
);

-- The options of select fields, in each field's order.
CREATE TABLE field_options (
    account_id bigint  NOT NULL,
    field_id   bigint  NOT NULL,
    id         bigint  NOT NULL CHECK (id > 0),
    position   integer NOT NULL,
    name       text    NOT NULL CHECK (name <> ''),
    color      text    NOT NULL,
    PRIMARY KEY (account_id, field_id, id),
    UNIQUE (account_id, field_id, position),
    UNIQUE (account_id, field_id, name),
    FOREIGN KEY (account_id, field_id) REFERENCES fields (account_id, id)
);

-- Repositories under their current owner and name. IDs are 1, 2, 3 and so on
-- in the order repositories are added; they never change.
CREATE TABLE repositories (
    id       bigint  PRIMARY KEY CHECK (id > 0),
    owner_id bigint  NOT NULL REFERENCES accounts (id),
    name     text    NOT NULL CHECK (name <> ''),
    name_key text    NOT NULL,
    private  boolean NOT NULL,
    UNIQUE (owner_id, name_key)
);

-- Every owner and name under which a repository is found: its current one
-- and every former one, unless a newer repository took it over.
CREATE TABLE repository_names (
    owner_key     text   NOT NULL,
    name_key      text   NOT NULL,
    repository_id bigint NOT NULL REFERENCES repositories (id),
    PRIMARY KEY (owner_key, name_key)
);

-- Issues, live or not, and the values of live ones. A row is never deleted,
-- so an issue number is never used twice in a repository. version counts the
-- writes to the issue's values; field_values is a JSON array of values in the
-- order they were written.
CREATE TABLE issues (
    repository_id          bigint NOT NULL REFERENCES repositories (id),
    number                 bigint NOT NULL CHECK (number > 0),
    state                  text   NOT NULL DEFAULT 'live' CHECK (state IN ('live', 'deleted', 'transferred')),
    moved_to_repository_id bigint,
    moved_to_number        bigint,
    version                bigint NOT NULL DEFAULT 1,
    field_values           json   NOT NULL DEFAULT '[]',
    PRIMARY KEY (repository_id, number),
    FOREIGN KEY (moved_to_repository_id, moved_to_number) REFERENCES issues (repository_id, number),
    CHECK ((state = 'transferred') = (moved_to_repository_id IS NOT NULL AND moved_to_number IS NOT NULL))
);
