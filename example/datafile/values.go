package datafile

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/inprocess"
)

// addValues writes the values of the file's issues with the API's own add
// operation, so that every rule of a request applies to them: each issue's
// values, as the file gives them, are the body of a POST to an
// inprocess.Handler over the store, with a token that may write everywhere.
// An answer other than 200 becomes the error, which names the place in the
// file of the first item that the handler refused.
func (l *loader) addValues(ctx context.Context) error {
	token := rand.Text()
	loader := &issuefields.Principal{
		Kind:  issuefields.AppInstallationToken,
		Login: "data-file",
		Permissions: func(context.Context, issuefields.Repository) (issuefields.RepositoryPermissions, error) {
			return issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite, Push: true}, nil
		},
	}
	h, err := inprocess.Handler(l.store, issuefields.TokenVerifierFunc(func(_ context.Context, t string) (*issuefields.Principal, error) {
		if t != token {
			return nil, issuefields.ErrBadCredentials
		}
		return loader, nil
	}))
	if err != nil {
		return err
	}
	for i, rd := range l.file.Repositories {
		repo := l.repos[i]
		for j, is := range rd.Issues {
			if len(is.Values) == 0 {
				continue
			}
			at := fmt.Sprintf("repositories[%d].issues[%d]", i, j)
			body, err := json.Marshal(struct {
				Values []Value `json:"issue_field_values"`
			}{is.Values})
			if err != nil {
				return fmt.Errorf("%s.values: %w", at, err)
			}
			answer := inprocess.Ask(ctx, h, http.MethodPost, inprocess.ValuesPath(repo.Owner, repo.Name, is.Number), token, string(body))
			if answer.Status != http.StatusOK {
				return refusal(at, answer)
			}
		}
	}
	return nil
}

// refusal returns the error of the handler's answer to the values of the
// issue at the place at of the file: the message of the first item it
// refused, at the item's place, or the answer's status and message.
func refusal(at string, answer inprocess.Reply) error {
	for _, e := range answer.Errors {
		if e.Index != nil {
			return fmt.Errorf("%s.values[%d].%s: %s", at, *e.Index, e.Field, e.Message)
		}
	}
	return fmt.Errorf("%s.values: the API answered %d: %s", at, answer.Status, answer.Message)
}
