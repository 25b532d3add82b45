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
// Notify never waits for the network: it encodes the event, signs it and puts
// it on a bounded queue, from which a few workers deliver. A slow or failing
// receiver therefore never slows the API; when the queue is full, the event is
// dropped, logged and counted in Stats.
//
// # Deliveries
//
// Each event is one POST request whose body is the issuefields.Event as JSON,
// with these headers (Service is Options.Vendor):
//
//	Content-Type: application/json
//	User-Agent: issuefields-webhook      (Options.UserAgent)
//	X-Service-Event: issue_field_values
//	X-Service-Delivery: <id>             unique per event, the same on every attempt
//	X-Service-Signature-256: sha256=<hex of HMAC-SHA256 of the body under the secret>
//
// A 2xx answer is a success. Anything else, a redirect included, and a
// transport error are failures: the request is retried after an exponential
// backoff with jitter (Options.BackoffBase doubling up to Options.BackoffMax),
// up to Options.MaxAttempts attempts, and then logged and counted as failed.
// Each attempt is bounded by Options.Timeout.
//
// Delivery is best effort: an event that is dropped, failed or abandoned by
// Close is not sent again, and Stats counts each outcome. A receiver may get
// an event twice, when its answer was lost, and events may arrive out of
// order, since there are several workers and retries; the event's id tells
// repeats apart, and its time says when its change was committed.
//
// # Receiving
//
// A receiver verifies the signature over the body exactly as it was received,
// before decoding it, with Verify:
//
//	func receive(w http.ResponseWriter, r *http.Request) {
//		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
//		if err != nil {
//			http.Error(w, "cannot read body", http.StatusBadRequest)
//			return
//		}
//		if !webhook.Verify(secret, body, r.Header.Get("X-Service-Signature-256")) {
//			http.Error(w, "bad signature", http.StatusUnauthorized)
//			return
//		}
//		var e issuefields.Event
//		if err := json.Unmarshal(body, &e); err != nil {
//			http.Error(w, "bad event", http.StatusBadRequest)
//			return
//		}
//		// Handle e, skipping an e.ID already handled.
//		w.WriteHeader(http.StatusNoContent)
//	}
//
// The signature is the scheme of GitHub's X-Hub-Signature-256, so a receiver
// written for GitHub's webhooks verifies these too.
//
// # Security
//
// The secret is never logged, nor the password of a URL. The signature covers
// the body only, not the headers: a receiver that must resist a replayed
// request remembers the event ids (the body's "id") it has handled and may
// refuse an event whose "time" is too old. The default client does not follow
// redirects, so a delivery is never sent to another address than the one
// configured.
package webhook
