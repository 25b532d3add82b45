package issuefields

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/issuefields/issuefields/internal/reponame"
)

// The values routes: list, add, set and delete the field values of an issue.
// A list reads one Snapshot of the store (findIssue) and answers from it; a
// write runs the write sequence (commit, write.go), which decides it here
// (decide).

// maxItems is the largest number of items one request may write.
const maxItems = 25

// valueResource is the resource of the errors[] items of a values body.
const valueResource = "IssueFieldValue"

// listValues serves GET: one page of the issue's values.
func (h *Handler) listValues(c *call) error {
	var snap Snapshot
	if err := h.findIssue(c, &snap); err != nil {
		return err
	}
	key := snap.Issue.Key()
	// A kept list has the ETag; without one, a 304 needs only the ETag,
	// and the list is rendered after the check.
	sum := etagSumOf(key, snap.Issue.Version, h.fieldSums.of(snap.Fields))
	list := h.lists.get(key, sum)
	var tag string
	if list != nil {
		tag = list.etag
	} else {
		tag = formatETag(sum)
	}
	c.w.setHeader("Etag", tag)
	if etagListMatches(headerList(c.r, "If-None-Match"), tag, true) {
		c.w.WriteHeader(http.StatusNotModified)
		return nil
	}
	if list == nil {
		list = renderList(snap.Issue.ID, snap.Fields, snap.Issue.Values, sum)
		h.lists.put(key, list)
	}
	p := pageOf(c.r.URL.RawQuery, list.count())
	if link := p.link(h.baseURL, c.r); link != "" {
		c.w.setHeader("Link", link)
	}
	writeBody(c.w, http.StatusOK, list.items(p.bounds(list.count())))
	return nil
}

// addValues serves POST: the listed fields get their new values, the others
// keep theirs; an empty list clears every value.
func (h *Handler) addValues(c *call) error {
	return h.writeValues(c, &write{action: ActionAdded, allowArrays: true})
}

// setValues serves PUT: the issue holds exactly the listed values afterwards.
func (h *Handler) setValues(c *call) error { return h.writeValues(c, &write{action: ActionSet}) }

// writeValues serves add and set: it commits the write, whose items it reads
// from the body and validates against the issue's fields, and answers with
// the issue's whole list.
func (h *Handler) writeValues(c *call, w *write) error {
	if err := h.commit(c, w); err != nil {
		return err
	}
	list := h.lists.list(&w.stored, etagSumOf(w.stored.Key(), w.stored.Version, w.fieldsSum), w.snap.Fields, w.after)
	c.w.setHeader("Etag", list.etag)
	writeBody(c.w, http.StatusOK, list.body)
	return nil
}

// deleteValue serves DELETE: the field's value goes; a field without a value
// on the issue is 404.
func (h *Handler) deleteValue(c *call) error {
	id := c.r.PathValue("issue_field_id")
	w := &write{action: ActionDeleted}
	var ok bool
	if w.fieldID, ok = parsePositiveInt(id); !ok {
		return ErrNotFound
	}
	if err := h.commit(c, w); err != nil {
		return err
	}
	c.w.setHeader("Etag", formatETag(etagSumOf(w.snap.Issue.Key(), w.stored.Version, w.fieldsSum)))
	c.w.WriteHeader(http.StatusNoContent)
	return nil
}

// issuePath returns the owner, repository name and issue number that c's
// path names, once it has identified the caller and checked the kind of its
// token.
func (h *Handler) issuePath(c *call) (owner, name string, number int64, err error) {
	owner, name = c.r.PathValue("owner"), c.r.PathValue("repo")
	number, ok := parsePositiveInt(c.r.PathValue("issue_number"))
	if !ok || reponame.HasGitSuffix(name) {
		return "", "", 0, ErrNotFound
	}
	if err := h.identify(c); err != nil {
		return "", "", 0, err
	}
	if c.principal != nil && !c.principal.Kind.accepted() {
		return "", "", 0, errTokenKindNotAccepted // whatever the path names
	}
	return owner, name, number, nil
}

// findIssue reads the Snapshot of the issue that c's path names into snap,
// and locates the issue in it.
func (h *Handler) findIssue(c *call, snap *Snapshot) error {
	owner, name, number, err := h.issuePath(c)
	if err != nil {
		return err
	}
	return h.readLocated(c, snap, owner, name, number)
}

// readLocated reads the Snapshot of issue number of owner/name (0 for the
// repository alone) into snap, for c, whose caller is identified, and
// locates the issue in it.
func (h *Handler) readLocated(c *call, snap *Snapshot, owner, name string, number int64) error {
	var err error
	if *snap, err = h.store.Snapshot(c.ctx(), owner, name, number); err != nil {
		return err
	}
	return h.locate(c, snap, owner, name, number)
}

// locate authorizes the caller on the repository of snap, a Snapshot for
// issue number of owner/name, applies the secondary rate limit to a write
// (once a request), and answers a renamed or transferred repository, or a
// transferred issue, with a redirect to the same place below the new path
// (a value's path, say). Authorization is decided before anything about the
// issue is told, and before the body is read. For number 0 it locates the
// repository alone (locateRepository).
func (h *Handler) locate(c *call, snap *Snapshot, owner, name string, number int64) error {
	if err := h.locateRepository(c, snap, owner, name); err != nil || number == 0 {
		return err
	}
	if snap.IssueErr != nil {
		return snap.IssueErr
	}
	repo, moved := snap.Repository, snap.Issue.Repository
	if moved.ID != repo.ID {
		// The issue moved to another repository: only a caller who may see
		// that repository learns where.
		if err := authorizeRepository(c.ctx(), c.route.op, moved, c.principal); err != nil {
			if a := answerTo(err, c.route); a.status == http.StatusNotFound || a.status >= 500 {
				return err
			}
		}
	}
	if moved.ID != repo.ID || snap.Issue.Number != number {
		return redirect(h.baseURL, c.r, moved, snap.Issue.Number)
	}
	return nil
}

// locateRepository is the part of locate that concerns the repository of
// snap, which the request names as owner/name: authorization, the redirect
// of a renamed or transferred repository, and the secondary rate limit.
func (h *Handler) locateRepository(c *call, snap *Snapshot, owner, name string) error {
	repo := snap.Repository
	if err := authorizeRepository(c.ctx(), c.route.op, repo, c.principal); err != nil {
		return err
	}
	if !reponame.Same(repo.Owner, owner) || !reponame.Same(repo.Name, name) {
		return redirect(h.baseURL, c.r, repo, 0)
	}
	if !c.limited {
		c.limited, c.limitErr = true, h.limitWrites(c)
	}
	return c.limitErr
}

// decideValues decides w, an add, a set or a delete, on w.snap, whose shown
// values are w.before, as decide describes: an add or set validates its
// items against the fields of w.snap, then the request's If-Match is
// checked, then the new values are made.
func (h *Handler) decideValues(c *call, w *write) error {
	var updates []Value
	if w.action != ActionDeleted {
		var err error
		if updates, err = parseItems(w.items, w.snap.Fields, w.allowArrays); err != nil {
			return err
		}
	}
	if h.ifMatchFails(c, w) {
		return errPreconditionFailed
	}
	next, err := w.apply(w.before, updates)
	if err != nil {
		return err
	}
	w.after, w.stored = next, w.snap.Issue
	w.stored.Values = next
	if sameValues(w.before, next) {
		return errUnchanged
	}
	w.stored.UpdatedAt = now()
	return nil
}

// apply returns the values that w makes of current, the values the fields
// show, with updates, the values of an add or set body; never nil.
func (w *write) apply(current, updates []Value) ([]Value, error) {
	var next []Value
	switch w.action {
	case ActionAdded:
		next = mergeValues(current, updates)
	case ActionSet:
		next = updates
	case ActionDeleted:
		i := slices.IndexFunc(current, func(v Value) bool { return v.FieldID == w.fieldID })
		if i < 0 {
			return nil, fmt.Errorf("field %d has no value on the issue: %w", w.fieldID, ErrNotFound)
		}
		next = slices.Delete(slices.Clone(current), i, i+1)
	}
	if next == nil {
		next = []Value{}
	}
	return next, nil
}

// mergeValues returns current with updates: each replaces the value of its
// field, the other fields keep theirs. No updates at all clears every value.
// When the updates replace every value, it returns updates itself.
func mergeValues(current, updates []Value) []Value {
	if len(updates) == 0 {
		return nil
	}
	n := len(current) + len(updates) // less the updates that replace a value
	for i := range updates {
		if _, replaces := valueOf(current, updates[i].FieldID); replaces {
			n--
		}
	}
	if n == len(updates) {
		return updates // every current value is replaced
	}
	next := make([]Value, 0, n)
	for i := range current {
		if _, replaced := valueOf(updates, current[i].FieldID); !replaced {
			next = append(next, current[i])
		}
	}
	return append(next, updates...)
}

// valuesBody is the shape of an add or set body: the items of
// issue_field_values, at most maxItems of them.
var valuesBody = bodyShape{
	list: "issue_field_values", maxItems: maxItems,
	tooMany: validationFailed(&fieldError{Resource: valueResource, Field: "issue_field_values", Code: "invalid",
		Message: fmt.Sprintf(`"issue_field_values" has more than %d items; one request may write at most %d.`, maxItems, maxItems)}),
}

// The errors of an add or set body without its issue_field_values array.
var (
	errNoItems = validationFailed(&fieldError{Resource: valueResource, Field: "issue_field_values", Code: "missing_field",
		Message: `The body needs "issue_field_values", an array of {"field_id", "value"} objects; an empty array clears every value.`})
	errItemsNotArray = validationFailed(&fieldError{Resource: valueResource, Field: "issue_field_values", Code: "invalid",
		Message: `"issue_field_values" must be an array of {"field_id", "value"} objects.`})
)

// readItems reads the body of an add or set, at most limit bytes of it, and
// returns the items of its issue_field_values array. It refuses what the
// contract's steps 1 and 2 refuse: a body over limit (413), one that is not
// JSON, not an object or that repeats a key (400), and one without the array,
// or with more than maxItems items (422).
func readItems(w *recorder, r *http.Request, limit int64) ([][]byte, error) {
	body, err := readBody(w, r, limit, &valuesBody)
	switch {
	case err != nil:
		return nil, err
	case !body.hasList:
		return nil, errNoItems
	case !body.listIsArray:
		return nil, errItemsNotArray
	}
	return body.items, nil
}

// parseItems turns the items of a request body into values for fields,
// reporting every invalid item. allowArrays is true for add (POST), which may
// write multi_select fields, and false for set (PUT).
func parseItems(items [][]byte, fields []Field, allowArrays bool) ([]Value, error) {
	values := make([]Value, 0, len(items))
	var errs []any
	var seenIDs [maxItems]int64
	seen := seenIDs[:0]
	for i, item := range items {
		fail := func(field, code, message string) {
			index := i
			errs = append(errs, &fieldError{Resource: valueResource, Field: field, Code: code, Message: message, Index: &index})
		}
		if len(item) == 0 || item[0] != '{' {
			fail("issue_field_values", "invalid", `Each item must be an object with "field_id" and "value".`)
			continue
		}
		var rawID, rawValue []byte
		var unknown []string
		eachMember(item, func(key, value []byte) {
			switch {
			case keyIs(key, "field_id"):
				rawID = value
			case keyIs(key, "value"):
				rawValue = value
			default:
				if name := stringValue(key); !slices.Contains(unknown, name) {
					unknown = append(unknown, name)
				}
			}
		})
		// Sorted, so that the errors come in the same order every time.
		slices.Sort(unknown)
		for _, key := range unknown {
			fail(key, "invalid", fmt.Sprintf(`Unknown key %q: an item has exactly "field_id" and "value".`, key))
		}
		if rawID == nil {
			fail("field_id", "missing_field", `The item needs "field_id", the ID of an issue field.`)
			continue
		}
		id, ok := parsePositiveInt(string(rawID))
		if !ok {
			fail("field_id", "invalid", fmt.Sprintf(`"field_id" must be a positive integer, not %s.`, excerpt(rawID)))
			continue
		}
		if slices.Contains(seen, id) {
			fail("field_id", "already_exists", fmt.Sprintf("Issue field %d appears more than once; send each field at most once.", id))
			continue
		}
		seen = append(seen, id)
		f := fieldByID(fields, id)
		if f == nil {
			fail("field_id", "invalid", fmt.Sprintf("Issue field with id %d not found", id))
			continue
		}
		if rawValue == nil {
			fail("value", "missing_field", fmt.Sprintf(`The item for field %q needs "value".`, f.Name))
			continue
		}
		v, msg := parseValue(f, rawValue, allowArrays)
		if msg != "" {
			fail("value", "invalid", msg)
			continue
		}
		values = append(values, v)
	}
	if errs != nil {
		return nil, validationFailed(errs...)
	}
	return values, nil
}

// shownValues returns values without those that fields no longer define: the
// values of fields that are gone, and the options that a select field no
// longer has (a value left without options goes too). It never modifies
// values, and returns values itself when nothing goes.
func shownValues(values []Value, fields []Field) []Value {
	for i := range values {
		if f := fieldByID(fields, values[i].FieldID); f == nil || !allShown(f, &values[i]) {
			return slices.Collect(func(yield func(Value) bool) {
				for _, v := range values {
					if v, ok := shownValue(fields, v); ok && !yield(v) {
						return
					}
				}
			})
		}
	}
	return values
}

// shownValue returns v with only the options that its field still has, and
// false when nothing of v is shown.
func shownValue(fields []Field, v Value) (Value, bool) {
	f := fieldByID(fields, v.FieldID)
	if f == nil || !shown(f, &v) {
		return Value{}, false
	}
	if hasOptions(f.DataType) {
		v.OptionIDs = slices.DeleteFunc(slices.Clone(v.OptionIDs), func(id int64) bool { return optionByID(f, id) == nil })
	}
	return v, true
}

// allShown reports whether everything of v is shown: whether f has a known
// data type and, for a select field, whether each of v's options is still one
// of f's.
func allShown(f *Field, v *Value) bool {
	rules := rulesOf(f.DataType)
	if rules == nil || !rules.hasOptions {
		return rules != nil
	}
	for _, id := range v.OptionIDs {
		if optionByID(f, id) == nil {
			return false
		}
	}
	return true
}

// sameValues reports whether a and b hold the same value for every field,
// whatever their order.
func sameValues(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		w, ok := valueOf(b, a[i].FieldID)
		if !ok || !sameValue(&a[i], w) {
			return false
		}
	}
	return true
}

// sameValue reports whether a and b are the same value.
func sameValue(a, b *Value) bool {
	return a.FieldID == b.FieldID && a.Text == b.Text && a.Number == b.Number &&
		a.Date == b.Date && slices.Equal(a.OptionIDs, b.OptionIDs)
}

// valueOf returns the value of field id among values.
func valueOf(values []Value, id int64) (*Value, bool) {
	for i := range values {
		if values[i].FieldID == id {
			return &values[i], true
		}
	}
	return nil, false
}
