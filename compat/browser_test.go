package compat

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-github/v92/github"
)

// Tokens of the example's demo data, which the browser tests use as a reader
// of the README would.
const (
	demoWriterToken = "demo-writer-token" // writes in every repository, manages octo-org's hooks
	demoReaderToken = "demo-reader-token" // reads hello-world and roadmap
)

// origin returns the scheme, host and port of the server.
func (s *server) origin() string {
	return strings.TrimSuffix(s.base, mountPrefix+"/")
}

// pageURL returns the address of the server's page.
func (s *server) pageURL() string {
	return s.origin() + "/_issuefields/"
}

// openPage opens the server's page in tab and returns its text.
func openPage(t *testing.T, tab context.Context, s *server) string {
	t.Helper()
	if err := chromedp.Do(tab, chromedp.Navigate(s.pageURL())); err != nil {
		t.Fatalf("opening %s: %v", s.pageURL(), err)
	}
	text, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("body")))
	if err != nil {
		t.Fatalf("reading the page's text: %v", err)
	}
	return text
}

// TestBrowserPageShowsTheDemoData opens the page of a server with the demo
// data and finds its organization, field, repository and values.
func TestBrowserPageShowsTheDemoData(t *testing.T) {
	s := startServerWith(t, "")
	tab := startBrowser(t)
	text := openPage(t, tab, s)
	for _, want := range []string{"octo-org", "Priority", "High, Medium, Low", "octo-org/hello-world",
		"Crash when saving a file with a long name", "High", "2026-04-01"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %q:\n%s", want, text)
		}
	}
}

// exerciseDemo does to a server with the demo data what a tool does: it
// creates an organization hook of octo-org with webhookSecret for a new
// receiver, writes hello-world#3's Estimate with demoWriterToken and reads
// it with demoReaderToken. It returns the hook's id and its receiver's
// deliveries, once the receiver has the hook's ping and the write's
// delivery.
func exerciseDemo(t *testing.T, s *server) (hookID int64, deliveries <-chan rawDelivery) {
	t.Helper()
	receiver, deliveries := startRawReceiver(t)
	hook, _, err := orgHookMethods(s.client(t, demoWriterToken), "octo-org").create(context.Background(), &github.Hook{
		Name:   github.Ptr("web"),
		Events: []string{"issues"},
		Config: &github.HookConfig{URL: github.Ptr(receiver), ContentType: github.Ptr("json"), Secret: github.Ptr(webhookSecret)},
	})
	if err != nil {
		t.Fatalf("creating a hook: %v", err)
	}
	path := valuesPath("octo-org", "hello-world", 3)
	if a := call(t, s, demoWriterToken, http.MethodPost, path, `{"issue_field_values": [{"field_id": 2, "value": 5}]}`); a.status != http.StatusOK {
		t.Fatalf("POST %s = %d %s, want 200", path, a.status, a.body)
	}
	if _, _, err := listValues(context.Background(), s.client(t, demoReaderToken), "octo-org", "hello-world", 3, nil); err != nil {
		t.Fatalf("listing values: %v", err)
	}
	collect(t, deliveries, 2)
	return hook.GetID(), deliveries
}

// TestBrowserPageShowsNoSecret opens the page after requests with two
// tokens and the creation of a hook with a secret, and finds in its HTML
// neither the tokens, nor the Authorization headers that carried them, nor
// the secret, though it shows the requests and the hook.
func TestBrowserPageShowsNoSecret(t *testing.T) {
	s := startServerWith(t, "")
	exerciseDemo(t, s)
	tab := startBrowser(t)
	text := openPage(t, tab, s)
	html, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	if err != nil {
		t.Fatalf("reading the page's HTML: %v", err)
	}
	// The page shows the requests of both tokens, and the write that
	// created the hook with its secret masked.
	for _, want := range []string{"octocat", "reader", "/orgs/octo-org/hooks", "********"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %q:\n%s", want, text)
		}
	}
	secrets := []string{demoWriterToken, demoReaderToken, webhookSecret,
		"token " + demoWriterToken, "Bearer " + demoWriterToken, "Bearer " + demoReaderToken}
	for _, secret := range secrets {
		if strings.Contains(html, secret) {
			t.Errorf("the page's HTML holds %q", secret)
		}
	}
}
