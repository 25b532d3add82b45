package compat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// specFile is GitHub's REST description of the routes and webhooks that the
// example serves: an extract of github/rest-api-description, kept beside the
// repository (CI checks it out at ../shared).
const specFile = "../../shared/spec/github-rest-subset.json"

// loadSpec loads and checks specFile with kin-openapi. Without the file the
// test is skipped, but under CI, which has it, it fails.
func loadSpec(t *testing.T) *openapi3.T {
	t.Helper()
	if _, err := os.Stat(specFile); errors.Is(err, os.ErrNotExist) {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s does not exist, and CI has it beside the repository", specFile)
		}
		t.Skipf("skipped: no %s beside the repository", specFile)
	}
	doc, err := openapi3.NewLoader().LoadFromFile(specFile)
	if err != nil {
		t.Fatalf("loading %s: %v", specFile, err)
	}
	// The file's example of the "accepted" response, {"value": null}, is
	// one that kin-openapi refuses; its schemas are what the test needs.
	if err := doc.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
		t.Fatalf("%s is not a valid OpenAPI description: %v", specFile, err)
	}
	return doc
}

// schemaOf returns the component schema name of doc.
func schemaOf(t *testing.T, doc *openapi3.T, name string) *openapi3.Schema {
	t.Helper()
	ref := doc.Components.Schemas[name]
	if ref == nil || ref.Value == nil {
		t.Fatalf("%s has no schema %q", specFile, name)
	}
	return ref.Value
}

// responseSchema returns the schema of the JSON answer with status of the
// operation method path (a path of the description, such as
// /orgs/{org}/hooks), or nil for an answer without a body.
func responseSchema(t *testing.T, doc *openapi3.T, method, path string, status int) *openapi3.Schema {
	t.Helper()
	item := doc.Paths.Value(path)
	if item == nil || item.GetOperation(method) == nil {
		t.Fatalf("%s has no operation %s %s", specFile, method, path)
	}
	resp := item.GetOperation(method).Responses.Status(status)
	if resp == nil || resp.Value == nil {
		t.Fatalf("%s %s: %s gives no answer %d", method, path, specFile, status)
	}
	media := resp.Value.Content.Get("application/json")
	if media == nil || media.Schema == nil {
		return nil
	}
	return media.Schema.Value
}

// conforms returns nil when the JSON document data is valid against schema,
// with every error otherwise. String formats are checked too, "uri" as an
// absolute URL.
func conforms(schema *openapi3.Schema, data []byte, opts ...openapi3.SchemaValidationOption) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	opts = append(opts, openapi3.MultiErrors(), openapi3.DisableSchemaErrorDetails(), openapi3.EnableFormatValidation(),
		openapi3.WithStringFormatValidator("uri", absoluteURI{}))
	return schema.VisitJSON(v, opts...)
}

// absoluteURI is the validator of the format "uri": an absolute URL.
type absoluteURI struct{}

func (absoluteURI) Validate(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return fmt.Errorf("%q is not an absolute URI", s)
	}
	return nil
}

// checkAnswer checks an answer of the example to method path (a path of the
// description) against the schema that the description gives that answer.
func checkAnswer(t *testing.T, doc *openapi3.T, method, path string, a apiAnswer) {
	t.Helper()
	schema := responseSchema(t, doc, method, path, a.status)
	switch {
	case schema == nil && len(a.body) > 0:
		t.Errorf("%s %s: %d with a body, which the description does not give it:\n%s", method, path, a.status, a.body)
	case schema != nil:
		if err := conforms(schema, a.body, openapi3.VisitAsResponse()); err != nil {
			t.Errorf("%s %s: the %d answer does not match GitHub's schema: %v\n%s", method, path, a.status, err, a.body)
		}
	}
}

// apiAnswer is an answer of the example server.
type apiAnswer struct {
	status int
	header http.Header
	body   []byte
}
