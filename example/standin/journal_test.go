package standin_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/issuefields/issuefields/example/standin"
)

// The bounds of the journal, as docs/operations.md states them.
const (
	maxTarget     = 2 << 10
	maxBody       = 64 << 10
	journalBudget = 8 << 20
	journalSize   = 1000
)

// recorder returns the handler that records in j each request it answers,
// with a handler that reads the whole body and answers status, and a caller
// named after the token.
func recorder(j *standin.Journal, status int) http.Handler {
	return j.Record(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(status)
	}), func(token string) string { return "login-of-" + token })
}

// send serves a request of method to target, with body unless it is "",
// through h.
func send(h http.Handler, method, target, body string) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req := httptest.NewRequest(method, target, rd)
	req.Header.Set("Authorization", "Bearer octocat")
	h.ServeHTTP(httptest.NewRecorder(), req)
}

// answer returns the recorded requests of j as GET /_issuefields/requests
// answers them, and its body.
func answer(t *testing.T, j *standin.Journal) ([]map[string]any, []byte) {
	t.Helper()
	w := serve(standin.Config{Hosts: []string{"127.0.0.1:8080"}, Journal: j}, "GET", "/_issuefields/requests", "127.0.0.1:5000", "")
	var list []map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &list); w.Code != http.StatusOK || err != nil {
		t.Fatalf("GET /_issuefields/requests = %d (%v), want 200 and a list: %.300s", w.Code, err, w.Body)
	}
	return list, w.Body.Bytes()
}

func TestRecordCutsPathAndQueryToTheBound(t *testing.T) {
	const path = "/repos/octo-org/hello-world/issues/1/issue-field-values"
	long := strings.Repeat("a", 512<<10)
	for _, tc := range []struct {
		name, target, wantPath, wantQueryPrefix string
	}{
		{"a 512 KiB query", path + "?access_token=abc&page=2&q=" + long, path, "access_token=%2A%2A%2A%2A%2A%2A%2A%2A&page=2&q=aaa"},
		{"a query whose cut falls in an escape", path + "?q=" + strings.Repeat("%C3%A9", 1<<10), path, "q=%C3%A9%C3%A9"},
		{"a 512 KiB path", "/repos/" + long + "?page=2", "/repos/aaa", ""},
		{"a path whose cut falls in a character", "/repos/" + strings.Repeat("é", 1<<10) + "?page=2", "/repos/éé", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := new(standin.Journal)
			send(recorder(j, http.StatusNotFound), "GET", tc.target, "")
			got := j.Requests()[0]
			kept := len(got.Path) + len(got.Query)
			if !got.Truncated || kept > maxTarget || kept < maxTarget-8 {
				t.Errorf("recorded %d bytes of path and query, truncated %v; want the 2 KiB bound, and truncated", kept, got.Truncated)
			}
			if !strings.HasPrefix(got.Path, tc.wantPath) || !strings.HasPrefix(got.Query, tc.wantQueryPrefix) {
				t.Errorf("recorded path %.40q and query %.60q, want them to start %q and %q", got.Path, got.Query, tc.wantPath, tc.wantQueryPrefix)
			}
			if strings.ContainsRune(got.Path, '\uFFFD') || strings.ContainsRune(got.Query, '\uFFFD') {
				t.Errorf("recorded path %.40q and query %.60q, want no broken character", got.Path, got.Query)
			}
			list, _ := answer(t, j)
			if list[0]["truncated"] != true {
				t.Errorf("GET /_issuefields/requests shows %.300v, want \"truncated\": true", list[0])
			}
			page := serve(standin.Config{Hosts: []string{"127.0.0.1:8080"}, Journal: j}, "GET", "/_issuefields/", "127.0.0.1:5000", "")
			if !strings.Contains(page.Body.String(), "</code> (cut)</td>") {
				t.Errorf("the page does not say that the request was cut")
			}
		})
	}

	j := new(standin.Journal)
	send(recorder(j, http.StatusOK), "GET", path+"?page=2", "")
	list, _ := answer(t, j)
	if _, ok := list[0]["truncated"]; ok || list[0]["path"] != path || list[0]["query"] != "page=2" {
		t.Errorf("a short request was recorded as %v, want its path and query whole, without \"truncated\"", list[0])
	}
}

func TestRecordCutsALongMethod(t *testing.T) {
	j := new(standin.Journal)
	method := strings.Repeat("M", 4<<10)
	send(recorder(j, http.StatusMethodNotAllowed), method, "/repos/o/r/issues/1/issue-field-values", "")
	if got := j.Requests()[0]; !strings.HasPrefix(method, got.Method) || len(got.Method) != 32 || !got.Truncated {
		t.Errorf("a 4 KiB method was recorded as %d bytes, truncated %v; want its first 32, and truncated", len(got.Method), got.Truncated)
	}
}

// TestRecordHoldsNoneOfTheRequest checks that what a record keeps of a
// request's path and query is its own: 50 requests of 512 KiB each leave
// the heap within a few MiB of where it was, not with the 25 MiB they sent.
func TestRecordHoldsNoneOfTheRequest(t *testing.T) {
	j := new(standin.Journal)
	h := recorder(j, http.StatusNotFound)
	long := strings.Repeat("a", 512<<10)
	before := liveHeap()
	for i := range 25 {
		send(h, "GET", fmt.Sprintf("/repos/o/r/issues/%d/issue-field-values?q=%s", i, long), "")
		send(h, "GET", fmt.Sprintf("/repos/o/r/issues/%d/%s", i, long), "")
	}
	if grown := liveHeap() - before; grown > 8<<20 {
		t.Errorf("the journal of 50 requests of 512 KiB holds %d MiB more heap than before, want a few MiB at most", grown>>20)
	}
	runtime.KeepAlive(j)
}

// liveHeap returns the bytes of the heap that are live after a collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func TestJournalKeepsWithinItsByteBudget(t *testing.T) {
	j := new(standin.Journal)
	h := recorder(j, http.StatusCreated)
	const sent = 300
	filler := strings.Repeat("x", 60<<10)
	for i := range sent {
		send(h, "POST", fmt.Sprintf("/orgs/octo-org/hooks?n=%d&%s", i, strings.Repeat("q", maxTarget)), fmt.Sprintf(`{"n":%d,"text":%q}`, i, filler))
	}
	got := j.Requests()
	held := 0
	for k, req := range got {
		held += len(req.Method) + len(req.Path) + len(req.Query) + len(req.Login) + len(req.Body)
		var body struct{ N int }
		if err := json.Unmarshal(req.Body, &body); err != nil || body.N != sent-1-k {
			t.Fatalf("the journal's request %d has body %.40s (%v), want the body of request %d: the newest, in order", k, req.Body, err, sent-1-k)
		}
	}
	// Each request holds about 62 KiB, which makes about 130 in the budget.
	if held > journalBudget || len(got) < journalBudget/(maxTarget+maxBody+200) || len(got) >= sent {
		t.Errorf("the journal holds %d requests of %d bytes together, want the newest that fit in %d bytes", len(got), held, journalBudget)
	}

	for i := range journalSize {
		send(h, "GET", fmt.Sprintf("/small?n=%d", i), "")
	}
	got = j.Requests()
	if len(got) != journalSize || got[0].Query != "n=999" || got[journalSize-1].Query != "n=0" {
		t.Errorf("after 1,000 small requests the journal holds %d, from %q to %q; want those 1,000", len(got), got[0].Query, got[len(got)-1].Query)
	}
}

// fill records journalSize requests in j, each a write with a body of
// bodySize bytes and a secret in it, and a 2 KiB query, so that they fill
// both the count and about bodySize*1,000 bytes of the budget.
func fill(j *standin.Journal, bodySize int) {
	h := recorder(j, http.StatusCreated)
	for i := range journalSize {
		query := fmt.Sprintf("n=%d&pad=", i)
		query += strings.Repeat("q", maxTarget-len("/orgs/octo-org/hooks")-len(query))
		body := fmt.Sprintf(`{"n":%d,"config":{"secret":"s3cret-%d"},"text":"`, i, i)
		body += strings.Repeat("<", max(0, bodySize-len(body)-2)) + `"}`
		send(h, "POST", "/orgs/octo-org/hooks?"+query, body)
	}
}

func TestRequestsAnswerOfAFullJournal(t *testing.T) {
	j := new(standin.Journal)
	if _, body := answer(t, j); string(body) != "[]\n" {
		t.Errorf("an empty journal is answered %q, want []", body)
	}
	fill(j, 1<<10)
	list, body := answer(t, j)
	if len(list) != journalSize {
		t.Fatalf("a full journal is answered with %d requests, want %d", len(list), journalSize)
	}
	for k, req := range list {
		n := journalSize - 1 - k
		b, _ := req["body"].(map[string]any)
		if req["method"] != "POST" || req["path"] != "/orgs/octo-org/hooks" || !strings.HasPrefix(req["query"].(string), fmt.Sprintf("n=%d&", n)) ||
			req["status"] != float64(http.StatusCreated) || req["login"] != "login-of-octocat" || b == nil || b["n"] != float64(n) {
			t.Fatalf("request %d of the answer is %.300v, want request %d: newest first", k, req, n)
		}
	}
	if bytes.Contains(body, []byte("s3cret")) {
		t.Errorf("the answer shows a secret")
	}
	if bytes.Contains(body, []byte(`\u003c`)) {
		t.Errorf("the answer escapes markup in the bodies, six bytes a character, as the API's bodies do not")
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j.Requests()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(body, want.Bytes()) {
		t.Errorf("the answer of %d bytes is not the JSON of the %d recorded requests (%d bytes)", len(body), journalSize, want.Len())
	}
}
