package pgstore

import (
	"context"
	"fmt"
	"sync"

	"github.com/issuefields/issuefields"
)

// fieldsCache keeps the fields of each account that a Snapshot read, with
// their version (the accounts table's snapshot_version), so that a request
// reads the version alone as long as the definitions stay the same. A
// version names one state of an account's fields for good: every change,
// through any server, gives them a new one in its transaction (and so does a
// change of the account's repositories, after which the fields are read
// again once).
type fieldsCache struct {
	mu       sync.RWMutex
	accounts map[int64]cachedFields
}

// cachedFields are an account's fields at one version. The slice is shared
// by every request that gets it and never changes.
type cachedFields struct {
	version int64
	fields  []issuefields.Field
}

// of returns the fields of account at version: the kept ones, or else those
// that it reads through q, which it keeps.
func (c *fieldsCache) of(ctx context.Context, q fieldQuerier, account, version int64) ([]issuefields.Field, error) {
	c.mu.RLock()
	kept, ok := c.accounts[account]
	c.mu.RUnlock()
	if ok && kept.version == version {
		return kept.fields, nil
	}
	read, err := readFields(ctx, q, account)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.accounts == nil {
		c.accounts = make(map[int64]cachedFields)
	}
	c.accounts[account] = read
	return read.fields, nil
}

// readFields reads the fields of account and their version, in one
// statement, through q.
func readFields(ctx context.Context, q fieldQuerier, account int64) (cachedFields, error) {
	const query = `SELECT a.snapshot_version, ` + fieldColumns + `
		FROM accounts a
		LEFT JOIN fields f ON f.account_id = a.id
		LEFT JOIN field_options o ON o.account_id = f.account_id AND o.field_id = f.id
		WHERE a.id = $1
		ORDER BY f.position, o.position`
	what := fmt.Sprintf("read the fields of account %d", account)
	rows, err := q.Query(ctx, query, account)
	if err != nil {
		return cachedFields{}, wrap(what, err)
	}
	defer rows.Close()
	read := cachedFields{fields: []issuefields.Field{}}
	for rows.Next() {
		var f fieldRow
		if err := rows.Scan(append([]any{&read.version}, f.columns()...)...); err != nil {
			return cachedFields{}, wrap(what, err)
		}
		read.fields = f.appendTo(read.fields)
	}
	if err := rows.Err(); err != nil {
		return cachedFields{}, wrap(what, err)
	}
	return read, nil
}

// forgetAll drops everything kept.
func (c *fieldsCache) forgetAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.accounts)
}
