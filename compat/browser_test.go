package compat

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
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
// data and finds its organization with its fields, and the values of
// hello-world#1.
func TestBrowserPageShowsTheDemoData(t *testing.T) {
	s := startServerWith(t, "")
	tab := startBrowser(t)
	text := openPage(t, tab, s)
	for _, want := range []string{"octo-org", "Priority", "High, Medium, Low", "octo-org/hello-world"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %q:\n%s", want, text)
		}
	}
	issue, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("#state #issue-octo-org-hello-world-1")))
	if err != nil {
		t.Fatalf("reading hello-world#1's row: %v", err)
	}
	for _, want := range []string{"Priority High", "Estimate 3", "Due date 2026-04-01", "Crash when saving a file with a long name"} {
		if !strings.Contains(issue, want) {
			t.Errorf("hello-world#1's row does not show %q: %q", want, issue)
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
	// It holds the deliveries' requests, signed with the secret.
	if !strings.Contains(html, "X-Hub-Signature-256") {
		t.Errorf("the page's HTML holds no delivery's request:\n%s", html)
	}
	secrets := []string{demoWriterToken, demoReaderToken, webhookSecret,
		"token " + demoWriterToken, "Bearer " + demoWriterToken, "Bearer " + demoReaderToken}
	for _, secret := range secrets {
		if strings.Contains(html, secret) {
			t.Errorf("the page's HTML holds %q", secret)
		}
	}
}

// watchEventStreams is a script that a page runs before its own: it keeps
// every EventSource the page opens in window.eventStreams, so that a test
// can wait until the page listens to the server's changes.
const watchEventStreams = `window.eventStreams = [];
window.EventSource = class extends EventSource {
  constructor(...args) {
    super(...args);
    window.eventStreams.push(this);
  }
};`

// TestBrowserPageUpdatesLive opens the page, writes a value through the API
// and sees the page show it, without a reload: a mark the test left in the
// page is still there.
func TestBrowserPageUpdatesLive(t *testing.T) {
	s := startServerWith(t, "")
	tab := startBrowser(t)
	err := chromedp.Do(tab, chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: watchEventStreams})
		return err
	}))
	if err != nil {
		t.Fatalf("adding a script to the page: %v", err)
	}
	openPage(t, tab, s)
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`window.eventStreams.some((s) => s.readyState === EventSource.OPEN)`)); err != nil {
		t.Fatalf("waiting for the page to open its event stream: %v", err)
	}
	if _, err := chromedp.Run(tab, chromedp.Evaluate[int](`window.__stay = 1`)); err != nil {
		t.Fatalf("marking the page: %v", err)
	}

	const summary = "Written while the page was open"
	if _, _, err := addValues(context.Background(), s.client(t, demoWriterToken), "octo-org", "hello-world", 3, []*github.IssueRequestFieldValue{
		{FieldID: 4, Value: summary},
	}); err != nil {
		t.Fatalf("a write: %v", err)
	}
	row := `document.querySelector("#state #issue-octo-org-hello-world-3")`
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](row+`?.textContent.includes("`+summary+`")`)); err != nil {
		text, _ := chromedp.Run(tab, chromedp.Evaluate[string](row+`?.textContent ?? "no row"`))
		t.Fatalf("waiting for the page to show the write: %v; hello-world#3's row shows %q", err, text)
	}
	if stay, err := chromedp.Run(tab, chromedp.Evaluate[int](`window.__stay ?? 0`)); err != nil || stay != 1 {
		t.Errorf("the page's mark is %d, %v after the update: the page was loaded again", stay, err)
	}
}

// TestBrowserPageRedelivers clicks the Redeliver button of a delivery on the
// page: the receiver gets the delivery again, with its GUID, the hook's
// deliveries list the redelivery, and the page, back on the hook, shows it.
func TestBrowserPageRedelivers(t *testing.T) {
	s := startServerWith(t, "")
	hookID, deliveries := exerciseDemo(t, s)
	m := orgHookMethods(s.client(t, demoWriterToken), "octo-org")
	// The ping and the write's delivery are sent at once: either may be
	// recorded first.
	recorded := listAllDeliveries(t, m, hookID, 2)
	i := slices.IndexFunc(recorded, func(d *github.HookDelivery) bool { return d.GetEvent() == "issues" })
	if i < 0 {
		t.Fatalf("the hook's deliveries are %v, want the write's among them", recorded)
	}
	write := recorded[i]

	tab := startBrowser(t)
	openPage(t, tab, s)
	button := chromedp.CSS(fmt.Sprintf("#hook-%d #delivery-%d button.redeliver", hookID, write.GetID()))
	resp, err := chromedp.RunResponse(tab, chromedp.Click(button))
	if err != nil {
		t.Fatalf("clicking Redeliver: %v", err)
	}
	if resp.Status != http.StatusOK || resp.URL != s.pageURL() {
		t.Errorf("after Redeliver, the browser shows %d %s, want 200 %s", resp.Status, resp.URL, s.pageURL())
	}
	if hash, err := chromedp.Run(tab, chromedp.Evaluate[string](`location.hash`)); err != nil || hash != fmt.Sprintf("#hook-%d", hookID) {
		t.Errorf("after Redeliver, the page is at %q, %v; want the hook", hash, err)
	}

	again := collect(t, deliveries, 1)[0]
	if guid := again.header.Get("X-GitHub-Delivery"); guid != write.GetGUID() || again.header.Get("X-GitHub-Event") != "issues" {
		t.Errorf("the redelivery arrived with X-GitHub-Delivery %s and X-GitHub-Event %s, want %s and issues",
			guid, again.header.Get("X-GitHub-Event"), write.GetGUID())
	}
	redelivery := listAllDeliveries(t, m, hookID, 3)[0]
	if !redelivery.GetRedelivery() || redelivery.GetGUID() != write.GetGUID() {
		t.Fatalf("the newest delivery is %v, want the redelivery of %s", redelivery, write.GetGUID())
	}
	text, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS(fmt.Sprintf("#hook-%d #delivery-%d", hookID, redelivery.GetID()))))
	if err != nil || !strings.Contains(text, "redelivery") || !strings.Contains(text, write.GetGUID()) {
		t.Errorf("the page's row of the redelivery: %q, %v; want it marked a redelivery, with the GUID", text, err)
	}
}

// TestBrowserScreenshot takes a screenshot of the whole page of a server
// with the demo data, a hook with deliveries and a few requests. With
// UPDATE_SCREENSHOT=1 it writes it to docs/stand-in-page.png, the picture of
// the page in the documentation.
func TestBrowserScreenshot(t *testing.T) {
	s := startServerWith(t, "")
	exerciseDemo(t, s)
	tab := startBrowser(t)
	const width, height = 1280, 800
	if err := chromedp.Do(tab, chromedp.EmulateViewport(width, height)); err != nil {
		t.Fatalf("sizing the browser's window: %v", err)
	}
	openPage(t, tab, s)
	shot, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("taking a screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot is no PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < width || b.Dy() < height {
		t.Errorf("the screenshot is %dx%d, want at least %dx%d", b.Dx(), b.Dy(), width, height)
	}
	if os.Getenv("UPDATE_SCREENSHOT") == "1" {
		if err := os.WriteFile("../docs/stand-in-page.png", shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
