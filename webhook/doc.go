// Package webhook delivers the events of the Issue Field Values API to a URL,
// as signed HTTP POST requests of JSON.
//
// # Sending
//
// A Notifier is an issuefields.Notifier. Give it to the handler's Config, and
// close it after the HTTP server has shut down, so that the events of the last
// writes are delivered:
//
//	hook, err := webhook.New("https://hooks.example.com/issue-fields", webhook.Options{
//		Secret: []byte(os.Getenv("WEBHOOK_SECRET")),
//	})
//	if err != nil {
//		log.Fatal(err)
//	}
//	h, err := issuefields.New(issuefields.Config{
//		Store:    store,
//		Verifier: verifier,
//		Notifier: hook,
//	})
//	...
//	_ = srv.Shutdown(ctx)
//	if err := hook.Close(ctx); err != nil {
//		log.Printf("webhook: %v; %+v", err, hook.Stats())
//	}
//
// Notify never waits for the network: it encodes the event's deliveries,
// signs them and puts them on a bounded queue, from which a few workers
// deliver. A slow or failing receiver therefore never slows the API; when
// the queue is full, the event is dropped, counted in Stats, and Notify
// returns an error wrapping ErrQueueFull, which the handler logs.
//
// # Deliveries
//
// Deliveries are GitHub's issues event for issue fields, so that a receiver
// written for GitHub reads them unchanged. Each changed field of an event is
// one POST request whose body is, for a field that got a value (new or
// changed):
//
//	{
//	  "action": "field_added",
//	  "changes": {"issue_field_value": {"from": <the value before, if it had one>}},
//	  "issue": {"number": 1347, "url": "<the API URL>"},
//	  "issue_field": {"id": 1, "node_id": "IF_AQ", "name": "Notes", "data_type": "text"},
//	  "issue_field_value": <the value, as the list of values shows it>,
//	  "repository": {"id": 1296269, "name": "hello-world", "full_name": "octo-org/hello-world",
//	                 "private": false, "owner": {"login": "octo-org"}},
//	  "organization": {"login": "octo-org"},
//	  "sender": {"login": "octocat"}
//	}
//
// and for a field whose value was removed, "action" is "field_removed",
// "changes.issue_field_value.from" holds the value removed and
// "issue_field_value" is null. The headers are (Vendor is Options.Vendor):
//
//	Content-Type: application/json
//	User-Agent: <Vendor>-Hookshot/1              (Options.UserAgent)
//	X-<Vendor>-Event: issues
//	X-<Vendor>-Delivery: <a random GUID>         the same on every attempt
//	X-<Vendor>-Signature-256: sha256=<hex of HMAC-SHA256 of the body under the secret>
//
// With Vendor "GitHub" the signature header is GitHub's X-Hub-Signature-256.
//
// A 2xx answer is a success. Anything else, a redirect included, and a
// transport error are failures: the request is retried after an exponential
// backoff with jitter (Options.BackoffBase doubling up to Options.BackoffMax),
// up to Options.MaxAttempts attempts, and then logged and counted as failed.
// Each attempt is bounded by Options.Timeout. With the defaults a delivery is
// decided within a minute: five attempts of at most 10 seconds, with at most
// 7.5 seconds of waits between them.
//
// Delivery is best effort: a delivery that is dropped, failed or abandoned by
// Close is not sent again, and Stats counts each outcome. A receiver may get
// a delivery twice, when its answer was lost, and deliveries may arrive out
// of order, since there are several workers and retries; the delivery id
// tells repeats apart.
//
// # Receiving
//
// A receiver verifies the signature over the body exactly as it was received,
// before decoding it, with Verify (or go-github's ValidatePayload, with the
// vendor GitHub):
//
//	func receive(w http.ResponseWriter, r *http.Request) {
//		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
//		if err != nil {
//			http.Error(w, "cannot read body", http.StatusBadRequest)
//			return
//		}
//		if !webhook.Verify(secret, body, r.Header.Get("X-Hub-Signature-256")) {
//			http.Error(w, "bad signature", http.StatusUnauthorized)
//			return
//		}
//		// Decode body, skipping an X-GitHub-Delivery already handled.
//		w.WriteHeader(http.StatusNoContent)
//	}
//
// The signature is the scheme of GitHub's X-Hub-Signature-256, so a receiver
// written for GitHub's webhooks verifies these too.
//
// # Security
//
// The secret is never logged, nor the password of a URL. The signature covers
// the body only, not the headers, as GitHub's does: a body captured once can
// be sent again under a new delivery id, and a receiver that must resist
// that keeps its own record of the changes it applied. The default client
// does not follow redirects, so a delivery is never sent to another address
// than the one configured.
package webhook
