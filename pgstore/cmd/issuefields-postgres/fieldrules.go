package main

import (
	"context"
	"errors"
	"log/slog"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/pgstore"
)

// logFieldProblems logs, once each, what breaks the rules of field
// definitions in the database (issuefields.ValidateFields): names that
// another field of the organization, or another option of the field, has
// under the rules of names, and names that the rules refuse, which a database
// may hold from before the rules. The store keeps serving them as they are;
// the log says which ones to rename.
func logFieldProblems(ctx context.Context, s *pgstore.Store, logger *slog.Logger) error {
	orgs, err := s.Organizations(ctx)
	if err != nil {
		return err
	}
	for _, org := range orgs {
		fields, err := s.OrganizationFields(ctx, org)
		if err != nil {
			return err
		}
		for _, problem := range problems(issuefields.ValidateFields(fields)) {
			logger.Warn("a field in the database breaks a rule of field definitions; it is served as it is",
				"organization", org, "problem", problem)
		}
	}
	return nil
}

// problems returns the errors that err joins, or err alone, or none for nil.
func problems(err error) []error {
	var joined interface{ Unwrap() []error }
	switch {
	case err == nil:
		return nil
	case errors.As(err, &joined):
		return joined.Unwrap()
	}
	return []error{err}
}
