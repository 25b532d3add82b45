package compat

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// A rawDelivery is one delivery as it arrived at a receiver: its headers and
// its body, unparsed.
type rawDelivery struct {
	header http.Header
	body   []byte
}

// payload returns the JSON document of d: its body, or for a form delivery
// the form's payload field.
func (d rawDelivery) payload(t *testing.T) []byte {
	t.Helper()
	if !strings.HasPrefix(d.header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		return d.body
	}
	form, err := url.ParseQuery(string(d.body))
	if err != nil {
		t.Fatalf("a form delivery does not parse: %v\n%s", err, d.body)
	}
	return []byte(form.Get("payload"))
}

// signedWith reports whether both signatures of d, X-Hub-Signature-256 and
// X-Hub-Signature, are those of its body under secret.
func (d rawDelivery) signedWith(secret string) bool {
	sum256 := hmac.New(sha256.New, []byte(secret))
	sum256.Write(d.body)
	sum1 := hmac.New(sha1.New, []byte(secret))
	sum1.Write(d.body)
	return d.header.Get("X-Hub-Signature-256") == "sha256="+hex.EncodeToString(sum256.Sum(nil)) &&
		d.header.Get("X-Hub-Signature") == "sha1="+hex.EncodeToString(sum1.Sum(nil))
}

// startRawReceiver starts a webhook receiver that answers 200 "ok" to every
// delivery and keeps it, unparsed, on the returned channel, which holds 500.
func startRawReceiver(t *testing.T) (url string, deliveries <-chan rawDelivery) {
	t.Helper()
	ch := make(chan rawDelivery, 500)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("receiver: %v", err)
		}
		ch <- rawDelivery{header: r.Header.Clone(), body: body}
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(rc.Close)
	return rc.URL, ch
}

// collect returns the next n deliveries of ch, or fails the test when they
// do not all come within deliveryBound.
func collect[D any](t *testing.T, ch <-chan D, n int) []D {
	t.Helper()
	var got []D
	timeout := time.After(deliveryBound)
	for len(got) < n {
		select {
		case d := <-ch:
			got = append(got, d)
		case <-timeout:
			t.Fatalf("got %d deliveries within %v, want %d", len(got), deliveryBound, n)
		}
	}
	return got
}

// call sends a request to the server as `gh api` does (the token with the
// scheme "token", GitHub's media type, the API version 2022-11-28, and a
// JSON body) and returns the answer.
func call(t *testing.T, s *server, token, method, path, body string) apiAnswer {
	t.Helper()
	var r io.Reader = http.NoBody
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+token)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	if body != "" {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return apiAnswer{resp.StatusCode, resp.Header, b}
}
