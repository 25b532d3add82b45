package compat

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v92/github"
)

// toolPage is the page of a tool that a browser loads from another origin
// than the API's: its script lists an issue's values and adds one with a
// token, through fetch, and writes what it got into #result as JSON. The
// verbs are the address of the issue's values and the token.
const toolPage = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>A tool on another origin</title></head>
<body>
<pre id="result"></pre>
<script>
const values = %q;
const headers = {"Authorization": "Bearer %s", "Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"};
async function answer(r) {
  return {status: r.status, etag: r.headers.get("ETag"), requestID: r.headers.get("X-GitHub-Request-Id"), body: await r.json()};
}
(async () => {
  const result = {};
  try {
    result.list = await answer(await fetch(values, {headers}));
    result.add = await answer(await fetch(values, {
      method: "POST",
      headers: {...headers, "Content-Type": "application/json"},
      body: JSON.stringify({issue_field_values: [{field_id: 2, value: 8}]}),
    }));
  } catch (e) {
    result.error = String(e);
  }
  document.getElementById("result").textContent = JSON.stringify(result);
})();
</script>
</body>
</html>
`

// A toolAnswer is an answer of the API as toolPage's script read it.
type toolAnswer struct {
	Status    int                       `json:"status"`
	ETag      string                    `json:"etag"`
	RequestID string                    `json:"requestID"`
	Body      []*github.IssueFieldValue `json:"body"`
}

// TestBrowserCORS loads a tool's page from another origin (localhost, where
// the API is on 127.0.0.1, on another port), whose script lists and adds
// values with a token, as GitHub's CORS lets a page do: both requests
// succeed, the script reads the headers the API exposes, and the store holds
// the value afterwards.
func TestBrowserCORS(t *testing.T) {
	s := startServerWith(t, "")
	values := s.base + valuesPath("octo-org", "hello-world", 3)
	tool := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, toolPage, values, demoWriterToken)
	}))
	t.Cleanup(tool.Close)
	u, err := url.Parse(tool.URL)
	if err != nil {
		t.Fatal(err)
	}
	toolURL := "http://localhost:" + u.Port() + "/"

	tab := startBrowser(t)
	if err := chromedp.Do(tab, chromedp.Navigate(toolURL)); err != nil {
		t.Fatalf("opening %s: %v", toolURL, err)
	}
	text, err := chromedp.Run(tab, chromedp.Poll[string](`document.getElementById("result").textContent`))
	if err != nil {
		t.Fatalf("waiting for the tool's script: %v", err)
	}
	var result struct {
		List, Add toolAnswer
		Error     string
	}
	if err := json.Unmarshal([]byte(text), &result); err != nil {
		t.Fatalf("the tool's result %s: %v", text, err)
	}
	if result.Error != "" {
		t.Fatalf("the tool's fetch failed: %s", result.Error)
	}
	if l := result.List; l.Status != http.StatusOK || len(l.Body) != 0 || l.ETag == "" || l.RequestID == "" {
		t.Errorf("the tool's list: %+v, want 200, no values, and the ETag and X-GitHub-Request-Id headers", l)
	}
	want := []*github.IssueFieldValue{estimate(8)}
	if a := result.Add; a.Status != http.StatusOK || !cmp.Equal(a.Body, want, ignoreNodeID) {
		t.Errorf("the tool's write: %d %s, want 200 and Estimate 8", a.Status, text)
	}
	got, _, err := listValues(context.Background(), s.client(t, demoReaderToken), "octo-org", "hello-world", 3, nil)
	if err != nil || !cmp.Equal(got, want, ignoreNodeID) {
		t.Errorf("after the tool's write, the values are %v, %v; want Estimate 8", got, err)
	}
}
