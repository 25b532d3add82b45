package issuefields

import (
	"fmt"
	"net/http"
	"slices"
	"time"
)

// resolveOrganization authenticates and authorizes the caller of a field
// management route, and finds the organization and its fields. A store that
// cannot manage fields answers 404, as an unknown organization does.
// Authorization is decided before the body is read.
func (h *Handler) resolveOrganization(c *call) error {
	if c.route.hasFieldID {
		var ok bool
		if c.fieldID, ok = parsePositiveInt(c.r.PathValue("issue_field_id")); !ok {
			return ErrNotFound
		}
	}
	if h.fieldManager == nil {
		return ErrNotFound
	}
	if err := h.identify(c); err != nil {
		return err
	}
	c.org = c.r.PathValue("org")
	fields, err := h.fieldManager.OrganizationFields(c.ctx(), c.org)
	if err != nil {
		return err
	}
	if err := AuthorizeOrganization(c.ctx(), c.route.op, c.org, c.principal); err != nil {
		return err
	}
	c.orgFields = fields
	return h.limitWrites(c)
}

// listFields serves GET /orgs/{org}/issue-fields: every field, by ID.
func (h *Handler) listFields(c *call) error {
	return h.writeJSON(c.w, http.StatusOK, issueFieldsOf(c.orgFields))
}

// createField serves POST /orgs/{org}/issue-fields: the new field.
func (h *Handler) createField(c *call) error {
	req, err := h.readFieldRequest(c, true)
	if err != nil {
		return err
	}
	now := fieldTime()
	fields, err := h.fieldManager.ChangeFields(c.ctx(), c.org, func(current []Field) ([]Field, error) {
		f, err := req.newField(current, now)
		if err != nil {
			return nil, err
		}
		return append(slices.Clip(current), f), nil
	})
	if err != nil {
		return err
	}
	return h.writeJSON(c.w, http.StatusOK, issueFieldOf(&fields[len(fields)-1]))
}

// updateField serves PATCH /orgs/{org}/issue-fields/{issue_field_id}: the
// changed field.
func (h *Handler) updateField(c *call) error {
	req, err := h.readFieldRequest(c, false)
	if err != nil {
		return err
	}
	now := fieldTime()
	fields, err := h.fieldManager.ChangeFields(c.ctx(), c.org, func(current []Field) ([]Field, error) {
		return replaceField(current, c.fieldID, func(f Field) (Field, error) { return req.applyTo(f, current, now) })
	})
	if err != nil {
		return err
	}
	return h.writeJSON(c.w, http.StatusOK, issueFieldOf(fieldByID(fields, c.fieldID)))
}

// deleteField serves DELETE /orgs/{org}/issue-fields/{issue_field_id}: the
// field goes, and its values with it.
func (h *Handler) deleteField(c *call) error {
	_, err := h.fieldManager.ChangeFields(c.ctx(), c.org, func(current []Field) ([]Field, error) {
		if fieldByID(current, c.fieldID) == nil {
			return nil, fmt.Errorf("field %d: %w", c.fieldID, ErrNotFound)
		}
		return slices.DeleteFunc(slices.Clone(current), func(f Field) bool { return f.ID == c.fieldID }), nil
	})
	if err != nil {
		return err
	}
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// readFieldRequest reads and decodes the body of a create or an update.
func (h *Handler) readFieldRequest(c *call, create bool) (fieldRequest, error) {
	body, err := readFieldBody(c.w, c.r, h.maxBodyBytes, &c.w.bodyPending)
	if err != nil {
		return fieldRequest{}, err
	}
	return parseFieldRequest(body, create)
}

// fieldTime returns the time a field is created or changed at: now, in UTC,
// to the second, as the API shows it.
func fieldTime() time.Time { return time.Now().UTC().Truncate(time.Second) }
