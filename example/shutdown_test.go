package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptrace"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

var listeningLine = regexp.MustCompile(`^listening on (http://127\.0\.0\.1:[1-9][0-9]*/)$`)

// TestSIGTERMFinishesRequestsInFlight builds the example program, starts it,
// and sends it SIGTERM while a request is in flight: the request still gets
// its answer, and the program logs its stop and exits with status 0.
func TestSIGTERMFinishesRequestsInFlight(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped in -short mode: builds the example program with the go command")
	}
	if runtime.GOOS == "windows" {
		t.Skip("skipped on Windows, where a process cannot be sent SIGTERM")
	}
	bin := filepath.Join(t.TempDir(), "example")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-log-format", "json")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := false
	t.Cleanup(func() {
		if !exited {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})

	// The log, one JSON object per line, as the program writes it.
	logs := make(chan map[string]any, 100)
	go func() {
		defer close(logs)
		lines := bufio.NewScanner(stderr)
		for lines.Scan() {
			var entry map[string]any
			if err := json.Unmarshal(lines.Bytes(), &entry); err != nil {
				entry = map[string]any{"msg": "not JSON: " + lines.Text()}
			}
			logs <- entry
		}
	}()
	var seen []map[string]any
	// waitForLog reads the log until a line with msg arrives, and reports
	// whether one did before the log ended.
	waitForLog := func(msg string) bool {
		for entry := range logs {
			seen = append(seen, entry)
			if entry["msg"] == msg {
				return true
			}
		}
		return false
	}

	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		t.Fatal("the program printed nothing")
	}
	m := listeningLine.FindStringSubmatch(lines.Text())
	if m == nil {
		t.Fatalf("first line %q, want %q", lines.Text(), "listening on http://127.0.0.1:PORT/")
	}
	printed := make(chan struct{})
	go func() {
		io.Copy(io.Discard, stdout)
		close(printed)
	}()

	// A POST whose body the test writes, with Expect: 100-continue: the
	// server answers "100 Continue" when the handler starts to read the
	// body, so the request is in flight from then until the body ends.
	body, writeBody := io.Pipe()
	reading := make(chan struct{})
	ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		Got100Continue: func() { close(reading) },
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m[1]+"repos/octo-org/roadmap/issues/2/issue-field-values", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer demo-writer-token")
	req.Header.Set("Expect", "100-continue")
	// The transport sends the body only after "100 Continue", however long
	// that takes.
	client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: time.Hour}}
	type answer struct {
		status int
		body   string
		err    error
	}
	answered := make(chan answer, 1)
	go func() {
		resp, err := client.Do(req)
		if err != nil {
			answered <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		answered <- answer{resp.StatusCode, string(b), err}
	}()
	select {
	case <-reading:
	case a := <-answered:
		t.Fatalf("the server answered before it read the body: %d %s %v", a.status, a.body, a.err)
	}
	if _, err := io.WriteString(writeBody, `{"issue_field_values": [`); err != nil {
		t.Fatal(err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if !waitForLog("shutting down") {
		t.Fatalf("the program did not log that it is shutting down; its log: %v", seen)
	}
	if _, err := io.WriteString(writeBody, `{"field_id": 2, "value": 8}]}`); err != nil {
		t.Fatal(err)
	}
	writeBody.Close()
	a := <-answered
	if a.err != nil || a.status != http.StatusOK || !strings.Contains(a.body, `"value":8`) {
		t.Errorf("the request in flight during the stop got %d %s %v, want 200 with the new value", a.status, a.body, a.err)
	}

	if !waitForLog("stopped") {
		t.Errorf("the program did not log that it stopped; its log: %v", seen)
	}
	for range logs {
	}
	<-printed
	err = cmd.Wait()
	exited = true
	if err != nil {
		t.Errorf("the program ended with %v, want exit status 0", err)
	}
}
