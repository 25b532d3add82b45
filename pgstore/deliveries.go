package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/webhook"
	"github.com/jackc/pgx/v5"
)

// listedColumns are the columns of hook_deliveries that a list shows, in
// the order of listed.columns.
const listedColumns = `id, hook_id, guid, delivered_at, redelivery, duration_ns, status, status_code,
	event, action, installation_id, repository_id, url`

// AddDelivery records d as the newest delivery of hook d.HookID, with a new
// ID from the identity of hook_deliveries, and deletes the hook's deliveries
// older than its newest KeptDeliveries. For a hook that does not exist it
// records nothing and returns the zero Delivery.
//
// It is one implicit transaction of one round trip, a batch of two
// statements: the INSERT, which reads the hook's row FOR NO KEY UPDATE, and
// so waits for another delivery of the hook that is not yet committed; and
// the DELETE, which sees that INSERT and every delivery committed before it.
// Deliveries of one hook are recorded one at a time, whichever Store on the
// database records them, so their IDs grow with each, and the hook never
// keeps more than KeptDeliveries. The DELETE finds the oldest delivery to
// keep through the index of the hook's deliveries, by their IDs, and deletes
// one delivery in the steady state.
func (h *Hooks) AddDelivery(ctx context.Context, d webhook.Delivery) (webhook.Delivery, error) {
	what := fmt.Sprintf("record a delivery of hook %d", d.HookID)
	requestHeader, err := json.Marshal(d.Request.Header)
	if err != nil {
		return webhook.Delivery{}, fmt.Errorf("pgstore: %s: %w", what, err)
	}
	responseHeader, err := json.Marshal(d.Response.Header)
	if err != nil {
		return webhook.Delivery{}, fmt.Errorf("pgstore: %s: %w", what, err)
	}
	ctx, cancel := h.s.bound(ctx)
	defer cancel()
	batch := &pgx.Batch{}
	recorded := false
	batch.Queue(`INSERT INTO hook_deliveries (hook_id, guid, delivered_at, redelivery, duration_ns, status, status_code,
			event, action, installation_id, repository_id, url,
			request_headers, request_body, request_truncated, response_headers, response_body, response_truncated)
		SELECT id, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
			$13, coalesce($14, ''::bytea), $15, $16, coalesce($17, ''::bytea), $18
		FROM hooks WHERE id = $1 FOR NO KEY UPDATE
		RETURNING id`,
		d.HookID, d.GUID, d.DeliveredAt, d.Redelivery, int64(d.Duration), d.Status, d.StatusCode,
		d.Event, d.Action, d.InstallationID, d.RepositoryID, d.URL,
		string(requestHeader), d.Request.Body, d.Request.Truncated, string(responseHeader), d.Response.Body, d.Response.Truncated,
	).QueryRow(func(row pgx.Row) error {
		err := row.Scan(&d.ID)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		recorded = err == nil
		return err
	})
	batch.Queue(`DELETE FROM hook_deliveries WHERE hook_id = $1 AND id <= (
			SELECT id FROM hook_deliveries WHERE hook_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
		d.HookID, webhook.KeptDeliveries)
	if err := h.s.db.SendBatch(ctx, batch).Close(); err != nil {
		return webhook.Delivery{}, wrap(what, err)
	}
	if !recorded {
		return webhook.Delivery{}, nil
	}
	return d, nil
}

// Deliveries returns the deliveries of hook hookID that q selects, newest
// first, without their Request and Response, with one query through the
// index of the hook's deliveries; a second query tells a hook without the
// deliveries asked for from a hook that does not exist. It returns an error
// for a Limit that is not positive and for a Status other than "success",
// "failure" and "".
func (h *Hooks) Deliveries(ctx context.Context, hookID int64, q webhook.DeliveryQuery) ([]webhook.Delivery, error) {
	if err := checkQuery(q); err != nil {
		return nil, err
	}
	ctx, cancel := h.s.bound(ctx)
	defer cancel()
	what := fmt.Sprintf("read the deliveries of hook %d", hookID)
	rows, err := h.s.db.Query(ctx, `SELECT `+listedColumns+` FROM hook_deliveries
		WHERE hook_id = $1 AND ($2::bigint = 0 OR id < $2::bigint)
			AND ($3::text = '' OR ($3::text = 'success') = (status_code BETWEEN 200 AND 399))
		ORDER BY id DESC LIMIT $4`, hookID, q.Before, q.Status, q.Limit)
	if err != nil {
		return nil, wrap(what, err)
	}
	ds, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (webhook.Delivery, error) {
		var r deliveryRow
		err := row.Scan(r.listed()...)
		return r.delivery(), err
	})
	if err != nil {
		return nil, wrap(what, err)
	}
	if len(ds) > 0 {
		return ds, nil
	}
	var exists bool
	if err := h.s.db.QueryRow(ctx, `SELECT EXISTS (SELECT FROM hooks WHERE id = $1)`, hookID).Scan(&exists); err != nil {
		return nil, wrap(what, err)
	}
	if !exists {
		return nil, noHook(hookID)
	}
	return []webhook.Delivery{}, nil
}

// Delivery returns delivery id of hook hookID, whole, with one query.
func (h *Hooks) Delivery(ctx context.Context, hookID, id int64) (webhook.Delivery, error) {
	ctx, cancel := h.s.bound(ctx)
	defer cancel()
	var r deliveryRow
	err := h.s.db.QueryRow(ctx, `SELECT `+listedColumns+`,
			request_headers, request_body, request_truncated, response_headers, response_body, response_truncated
		FROM hook_deliveries WHERE hook_id = $1 AND id = $2`, hookID, id).
		Scan(append(r.listed(), r.messages()...)...)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return webhook.Delivery{}, fmt.Errorf("pgstore: delivery %d of hook %d: %w", id, hookID, issuefields.ErrNotFound)
	case err != nil:
		return webhook.Delivery{}, wrap(fmt.Sprintf("read delivery %d of hook %d", id, hookID), err)
	}
	d := r.delivery()
	if err := json.Unmarshal(r.requestHeader, &d.Request.Header); err != nil {
		return webhook.Delivery{}, fmt.Errorf("pgstore: the request headers of delivery %d: %w", id, err)
	}
	if err := json.Unmarshal(r.responseHeader, &d.Response.Header); err != nil {
		return webhook.Delivery{}, fmt.Errorf("pgstore: the response headers of delivery %d: %w", id, err)
	}
	return d, nil
}

// A deliveryRow is a row of hook_deliveries as it is read.
type deliveryRow struct {
	d                             webhook.Delivery
	durationNS                    int64
	requestHeader, responseHeader []byte
}

// listed returns where to scan listedColumns into r.
func (r *deliveryRow) listed() []any {
	d := &r.d
	return []any{&d.ID, &d.HookID, &d.GUID, &d.DeliveredAt, &d.Redelivery, &r.durationNS, &d.Status, &d.StatusCode,
		&d.Event, &d.Action, &d.InstallationID, &d.RepositoryID, &d.URL}
}

// messages returns where to scan the columns of the request and the
// response, in the order of the table, into r.
func (r *deliveryRow) messages() []any {
	d := &r.d
	return []any{&r.requestHeader, &d.Request.Body, &d.Request.Truncated, &r.responseHeader, &d.Response.Body, &d.Response.Truncated}
}

// delivery returns the delivery that r read, without its headers.
func (r *deliveryRow) delivery() webhook.Delivery {
	d := r.d
	d.DeliveredAt = d.DeliveredAt.UTC()
	d.Duration = time.Duration(r.durationNS)
	return d
}

// checkQuery returns an error unless q's Limit is positive and its Status
// one that DeliveryQuery describes.
func checkQuery(q webhook.DeliveryQuery) error {
	switch {
	case q.Limit <= 0:
		return fmt.Errorf("pgstore: deliveries: limit %d, want a positive one", q.Limit)
	case q.Status != "" && q.Status != "success" && q.Status != "failure":
		return fmt.Errorf(`pgstore: deliveries: status %q, want "success", "failure" or ""`, q.Status)
	}
	return nil
}

// noHook returns the error for a hook id that does not exist.
func noHook(id int64) error {
	return fmt.Errorf("pgstore: hook %d: %w", id, issuefields.ErrNotFound)
}
