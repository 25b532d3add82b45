package server

import (
	"fmt"
	"slices"

	"github.com/issuefields/issuefields"
)

// issueValues converts the values of an issue of repo, given in the API's
// request format, to the store's form, checking each against its field
// among fields with the rules the API applies to a request. at is the place
// of the issue in the file.
func issueValues(repo issuefields.Repository, fields []issuefields.Field, items []valueData, at string) ([]issuefields.Value, error) {
	values := make([]issuefields.Value, 0, len(items))
	seen := make(map[int64]int)
	for k, item := range items {
		where := fmt.Sprintf("%s.values[%d]", at, k)
		if first, ok := seen[item.FieldID]; ok {
			return nil, fmt.Errorf("%s: field %d already has a value in values[%d]", where, item.FieldID, first)
		}
		seen[item.FieldID] = k
		i := slices.IndexFunc(fields, func(f issuefields.Field) bool { return f.ID == item.FieldID })
		if i < 0 {
			return nil, fmt.Errorf("%s: %s", where, notAField(repo, item.FieldID))
		}
		v, err := fields[i].ParseValue(item.Value)
		if err != nil {
			return nil, fmt.Errorf("%s.value: %w", where, err)
		}
		values = append(values, v)
	}
	return values, nil
}

// notAField explains why id is not a field of repo.
func notAField(repo issuefields.Repository, id int64) string {
	if !repo.OwnedByOrganization {
		return fmt.Sprintf("field %d is not a field of %s/%s: its owner %q is not an organization of the file, so it has no fields", id, repo.Owner, repo.Name, repo.Owner)
	}
	return fmt.Sprintf("field %d is not a field of organization %q", id, repo.Owner)
}
