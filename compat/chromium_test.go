package compat

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// browserBound bounds everything a test does in the browser, from Chromium's
// start to its last action. It guards against a page or a browser that hangs;
// nothing in the tests depends on how fast they are.
const browserBound = 60 * time.Second

// startBrowser starts headless Chromium with a new, empty profile and returns
// the context of its one tab, which ends at browserBound or when the test
// ends. The test skips when Chromium is not installed, and fails instead when
// CI is set. It fails when the pages the tab opens throw an exception or
// write an error to the console, other than a resource that failed to load.
func startBrowser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no chromium on this machine, and CI runs every test: .ci/run installs it")
		}
		t.Skip("skipped: no chromium on this machine (Debian's package chromium)")
	}
	profile := t.TempDir() // removed after the browser has stopped
	bound, cancelBound := context.WithTimeout(context.Background(), browserBound)
	alloc, cancelAlloc := chromedp.NewExecAllocator(bound,
		chromedp.ExecPath(path),
		chromedp.UserDataDir(profile),
		chromedp.Headless,
		// Chromium runs as root in CI, where its sandbox cannot start.
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		// Chromium opens no connection of its own: the tests' machines
		// have no network beyond loopback.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	)
	tab, cancelTab := chromedp.NewContext(alloc)
	if err := chromedp.Do(tab); err != nil {
		cancelTab()
		cancelAlloc()
		cancelBound()
		t.Fatalf("starting Chromium: %v", err)
	}
	errs := watchConsole(tab)
	t.Cleanup(func() {
		for _, m := range errs.read() {
			t.Errorf("the browser's console: %s", m)
		}
		cancelTab()
		cancelAlloc() // waits for Chromium to exit
		cancelBound()
	})
	return tab
}

// A consoleErrors holds what the pages of a tab wrote to the console as
// errors: exceptions, and errors other than a resource that failed to load.
type consoleErrors struct {
	mu   sync.Mutex
	msgs []string
}

// watchConsole collects the console errors of tab until its context ends.
func watchConsole(tab context.Context) *consoleErrors {
	errs := &consoleErrors{}
	messages := chromedp.Console(tab)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError && m.Source != "network" {
				errs.mu.Lock()
				errs.msgs = append(errs.msgs, m.String())
				errs.mu.Unlock()
			}
		}
	}()
	return errs
}

// read returns the errors collected so far.
func (e *consoleErrors) read() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.msgs...)
}
