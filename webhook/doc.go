// Package webhook delivers the events of the Issue Field Values API to
// webhooks exactly as GitHub delivers its issues event for issue fields, and
// serves GitHub's routes that manage those webhooks, so that a tool written
// for GitHub's webhooks subscribes and receives unchanged.
//
// # Sending
//
// A Notifier is an issuefields.Notifier that delivers to the hooks of a
// Store: memstore's in one process, pgstore's in a database that several
// servers share, so that each of them delivers to the same hooks and lists
// the same deliveries. Give it to the handler's Config, and close it after
// the HTTP server has shut down, so that the events of the last writes are
// delivered:
//
//	hooks, err := webhook.New(webhook.Options{
//		Store:     store.Hooks(),             // a webhook.Store: memstore's or pgstore's Hooks
//		Directory: directory,                 // descriptions, account IDs; nil for the defaults
//		BaseURL:   "https://api.example.com", // the API's public address
//		WebURL:    "https://example.com",     // the web pages' (html_url)
//		Vendor:    "GitHub",                  // X-GitHub-Event and friends
//	})
//	if err != nil {
//		log.Fatal(err) // names what is wrong in the Options
//	}
//	h, err := issuefields.New(issuefields.Config{Store: store, Verifier: verifier, Notifier: hooks})
//	...
//	_ = srv.Shutdown(ctx)
//	if err := hooks.Close(ctx); err != nil {
//		log.Printf("webhook: %v; %+v", err, hooks.Stats())
//	}
//
// Notify never waits for the store or the network: it puts the event on a
// bounded queue (Options.QueueSize, 1,000), from which a few workers
// (Options.Workers, 4) find the hooks that want it and deliver. A slow,
// failing or hanging receiver therefore never slows a write.
//
// A host that replaces its store's data, as a test suite's reset does, calls
// Reset, which drops what is queued and cancels what is under way, so that
// nothing of the old data reaches the hooks of the new. For a store that
// several servers share, Options.Epochs tells each Notifier of a reset
// through any of them, and WithEpochMark gives each write's event the epoch
// its write was made in.
//
// # Managing hooks: the routes
//
// NewRoutes returns GitHub's webhook routes for organizations and
// repositories, with GitHub's request and answer bodies, so that go-github's
// Organizations.CreateHook, EditHook, PingHook, ListHookDeliveries,
// GetHookDelivery, RedeliverHookDelivery and DeleteHook, and their
// Repositories twins, work unchanged:
//
//	GET, POST            /orgs/{org}/hooks                   200 list; 201 and Location, then a ping
//	GET, PATCH, DELETE   /orgs/{org}/hooks/{hook_id}         200, 200, 204
//	GET, PATCH           /orgs/{org}/hooks/{hook_id}/config  200
//	GET                  /orgs/{org}/hooks/{hook_id}/deliveries
//	GET                  /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}
//	POST                 /orgs/{org}/hooks/{hook_id}/deliveries/{delivery_id}/attempts   202 {}
//	POST                 /orgs/{org}/hooks/{hook_id}/pings   204
//
// and the same under /repos/{owner}/{repo}. A host gives them to the
// issuefields.Handler, which serves them beside the API, under the same
// prefix:
//
//	routes, err := webhook.NewRoutes(webhook.RoutesConfig{Store: store, Notifier: hooks})
//	...
//	h, err := issuefields.New(issuefields.Config{Store: store, Verifier: verifier,
//		Notifier: hooks, Vendor: "GitHub", Routes: routes})
//	...
//	mux.Handle("/api/v3/", http.StripPrefix("/api/v3", h))
//
// with the Notifier's BaseURL https://api.example.com/api/v3, as the routes'
// Location and Link headers are under it. The handler decides for them what
// it decides for its own routes, so that they answer alike: the version
// header, authentication (the handler's Verifier), the error statuses and
// bodies, the body's bounds (Config.MaxBodyBytes), panic recovery, the log
// line, 405 and 404. The routes decide who may use them and what they do
// with the hooks. As on GitHub: a hook's name is "web";
// config.url is required, and must pass CheckHookURL (an absolute http or
// https URL with a host, at most MaxHookURLBytes long, with no white space
// or control character, nor one in its host once percent-decoded);
// content_type is "json" or "form" (the default);
// events default to ["push"], and only "issues" and "*" get the issue field
// events; a repository hook's PATCH takes add_events and remove_events; an
// organization or a repository has at most MaxHooks hooks. Keys a body does
// not need, and the read-only keys that go-github's EditHook sends back (id,
// url, created_at, type, …), are ignored; a known key of the wrong type or
// value is 422 with GitHub's validation-error body.
//
// Organization hooks need the organization permission organization_hooks
// (read for the GETs, write for the rest) or, for a classic token, the scope
// admin:org_hook; repository hooks need the repository permission
// repository_hooks, or the scopes read:repo_hook (the GETs), write:repo_hook
// or admin:repo_hook. A caller that cannot see the owner gets 404, one that
// sees it without the permission 403 naming it; an anonymous one 401 (404
// for a private repository), whether the organization exists or not. Every
// answer carries X-Accepted-<Vendor>-Permissions.
//
// # The bodies
//
// Each changed field of a write is one event: one delivery to each hook that
// wants it, an active hook of the repository or of the organization
// that owns it whose events name "issues" or "*". Its body is GitHub's
// webhook-issues-field-added or webhook-issues-field-removed, every required
// member of every nested object present:
//
//   - action is "field_added" when the field got a value, new or changed (then
//     changes.issue_field_value.from is the value before), and
//     "field_removed" when its value was removed (then issue_field_value is
//     the value removed, and changes is absent).
//   - issue_field is {id, name, field_type}.
//   - issue_field_value is {id, node_id, value} for text, number and date;
//     {id, node_id, value_id, option} for single_select; {id, node_id,
//     value_ids, options} for multi_select. Its id and node_id name the
//     value of that field on that issue: the same before and after a
//     change; the node_id is the one the values list gives it.
//   - issue is GitHub's issue object, built from the record by
//     Objects.Issue, the builder that a host's issue routes use too.
//   - repository, organization (for an organization's repository) and
//     sender are whole objects, and installation ({id, node_id}) is there when
//     an app installation wrote.
//
// A ping's body is GitHub's webhook-ping: the hook, its organization or
// repository, and the sender.
//
// What the record leaves empty has a default (see Objects.Issue):
// its title is "Issue #<number>", its state "open", its author the
// repository's owner, its update time the change's. What a Store does not
// hold comes from the Options' Directory, and otherwise from defaults: a
// repository's default branch "main"; an account's type "Bot" for a login
// that ends in "[bot]", "Organization" for an organization, and "User"
// otherwise. Every id and node_id comes from the module's one rule of ids
// (internal/ids): an issue's id is the store's issue ID and a repository's
// its ID, every node_id decodes back to what it names, and the ids of what
// no Store holds (accounts, installations, labels) are derived from their
// names. So they are the same on every server and after every restart.
//
// Every url and *_url is under Options.BaseURL, and every html_url under
// Options.WebURL. They are configured, never taken from a request: a
// delivery is built after its request and goes to a third party. The routes
// write their Location and Link headers and the hooks' urls under the same
// BaseURL, so it must include the prefix the routes are mounted under. The
// default, http://127.0.0.1:8080, suits only a server on that address.
//
// # Headers
//
// A delivery is a POST with the headers GitHub sends (<Vendor> is
// Options.Vendor, "Service" by default):
//
//	User-Agent: GitHub-Hookshot/<hex>
//	Content-Type: application/json     or application/x-www-form-urlencoded, payload=<the JSON>, for "form"
//	X-<Vendor>-Event: issues           ping for a ping
//	X-<Vendor>-Delivery: <GUID>        the event's: the same for every hook it goes to, and for a redelivery
//	X-<Vendor>-Hook-ID: <the hook's id>
//	X-<Vendor>-Hook-Installation-Target-Type: organization or repository
//	X-<Vendor>-Hook-Installation-Target-ID: <the organization's or repository's id>
//	X-<Vendor>-Signature-256: sha256=<hex of HMAC-SHA256 of the body>   with a secret
//	X-<Vendor>-Signature: sha1=<hex of HMAC-SHA1 of the body>           with a secret
//
// With the vendor GitHub the signatures are GitHub's X-Hub-Signature-256 and
// X-Hub-Signature. They sign the body as sent: the form, for a form hook.
//
// # Failures, records and redeliveries
//
// A receiver has Options.Timeout (10 seconds) to answer. A 2xx answer is a
// success; any other status, a redirect included (the default client does
// not follow them), no connection, no answer in time, or a connection closed
// before the answer is a failure. As on GitHub, a failed delivery is
// recorded and not sent again; a host may ask for retries with
// Options.MaxAttempts (each waits Options.RetryWait, doubling), and each
// attempt is recorded.
//
// Every delivery is recorded in the Store, off the request's path, whatever
// its outcome: its status ("OK", "Invalid HTTP Response: 500", "timed out",
// "failed to connect to host", …), the status code (0 when no answer came),
// its duration, and the request and the answer, headers and body. A record
// is bounded: the request's body within MaxRecordedBody bytes (64 KiB), and
// the answer's headers and body together within MaxRecordedResponse (80
// KiB), the body within MaxRecordedBody; what does not fit is left out, and
// the record says so. The default client reads at most
// MaxResponseHeaderBytes (64 KiB) of an answer's headers: a receiver that
// sends more fails the delivery, recorded as "Invalid HTTP Response: headers
// too large" (over HTTP/2, far more ends the connection: "failed to read the
// answer"). A Store keeps the newest KeptDeliveries of each hook, so a
// hook's records hold at most 1,000 × 80 KiB = 78 MiB of answers, 62.5 MiB
// of payloads, and their URLs and request headers (a few KiB each): about
// 143 MiB.
//
// Redeliver (the attempts route) sends a recorded payload again, with its
// GUID, to the hook as it is now: its current URL and content type, signed
// with its current secret, recorded with Redelivery set. A payload whose
// record was cut cannot be redelivered. Ping (the pings route, and every
// hook the routes create) sends a ping, to an inactive hook too.
//
// # Bounds and accounting
//
// Memory is bounded by the queue and the workers. An event that finds the
// queue full is dropped: Notify still returns nil, since the write has
// happened; the drop is counted in Stats.Dropped and logged, a flood of
// drops as a line per interval with a count. A failed delivery is recorded,
// counted in Stats.Failed and logged the same way: a receiver that answers
// 500 to every delivery gives a line per interval, not one per delivery.
// Close(ctx) delivers what is
// queued; when ctx ends first it stops the deliveries under way, gives up on
// the rest, counts them in Stats.Abandoned, logs their count, and returns
// ctx.Err(). After Close, Notify, Ping and Redeliver return ErrClosed. Stats
// counts deliveries sent (Delivered, Failed) and the events or single
// deliveries that were not (Dropped, Abandoned): once Close has returned,
// everything queued is counted.
//
// # Receiving
//
// A receiver checks the signature over the body exactly as received, before
// it decodes it, with Verify or, with the vendor GitHub, go-github's
// ValidatePayload:
//
//	func receive(w http.ResponseWriter, r *http.Request) {
//		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 25<<20))
//		if err != nil {
//			http.Error(w, "cannot read the body", http.StatusBadRequest)
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
// go-github's ParseWebHook returns an *IssuesEvent, which has no
// issue_field or issue_field_value: read those from the body.
//
// # Security
//
//   - A hook's secret is write-only: answers show "********", and that mask
//     sent back keeps the secret. As GitHub documents, a hook's PATCH with a
//     config but no secret removes the secret; PATCH .../config keeps what it
//     does not give. Secrets are never logged, nor recorded in deliveries.
//   - The signature covers the body, not the headers, as GitHub's does: a
//     body captured once can be sent again under another GUID. A receiver
//     that must resist that keeps a record of the GUIDs or changes it
//     handled. Redeliveries keep their GUID on purpose.
//   - A hook sends to any http or https URL its config gives, including
//     addresses on the server's own network, with no redirect followed.
//     Grant the hooks permissions to those who may make the server send
//     there, or give Options.Client a transport that refuses such
//     addresses. insecure_ssl "1" turns off the check of the receiver's
//     certificate for that hook.
//   - URLs in bodies and in the routes' headers come from the configured
//     base URLs, never from a request's Host.
package webhook
