-- Webhooks (webhook.Store) and the newest deliveries of each.

-- A hook belongs to an organization, by the lower-cased key of its login
-- (organization keeps the login as first spelt), or to a repository, by its
-- ID, which stays the same through renames and transfers: exactly one of
-- organization_key and repository_id is set, and the other is '' or 0. The
-- store does not check that the organization or the repository exists (the
-- routes do), so neither is a foreign key. IDs come from the identity and
-- are never given twice.
CREATE TABLE hooks (
    id               bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization     text        NOT NULL,
    organization_key text        NOT NULL,
    repository_id    bigint      NOT NULL CHECK (repository_id >= 0),
    active           boolean     NOT NULL,
    events           text[]      NOT NULL,
    url              text        NOT NULL,
    content_type     text        NOT NULL,
    secret           text        NOT NULL,
    insecure_ssl     text        NOT NULL,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    CHECK ((organization_key = '') <> (repository_id = 0))
);

CREATE INDEX hooks_scope ON hooks (organization_key, repository_id, id);

-- The newest deliveries of each hook, which go with it. Headers are JSON
-- objects of arrays, as Go's http.Header encodes; json rather than jsonb,
-- which refuses the NUL character. duration_ns is in nanoseconds.
CREATE TABLE hook_deliveries (
    id                 bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hook_id            bigint      NOT NULL REFERENCES hooks (id) ON DELETE CASCADE,
    guid               text        NOT NULL,
    delivered_at       timestamptz NOT NULL,
    redelivery         boolean     NOT NULL,
    duration_ns        bigint      NOT NULL,
    status             text        NOT NULL,
    status_code        integer     NOT NULL,
    event              text        NOT NULL,
    action             text        NOT NULL,
    installation_id    bigint      NOT NULL,
    repository_id      bigint      NOT NULL,
    url                text        NOT NULL,
    request_headers    json        NOT NULL,
    request_body       bytea       NOT NULL,
    request_truncated  boolean     NOT NULL,
    response_headers   json        NOT NULL,
    response_body      bytea       NOT NULL,
    response_truncated boolean     NOT NULL
);

-- A hook's deliveries, newest first: for a list, a cursor, and the oldest
-- one to keep.
CREATE INDEX hook_deliveries_newest ON hook_deliveries (hook_id, id DESC);
