package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// hookshotVersion is the version in the User-Agent of deliveries,
// GitHub-Hookshot/<hookshotVersion>: a short hex, as GitHub's is.
const hookshotVersion = "1f3b2c7"

// outgoing is one delivery to send: a payload of event to hook.
type outgoing struct {
	hook       Hook
	guid       string
	event      string
	action     string
	payload    []byte // the JSON document
	redelivery bool

	repositoryID, installationID int64

	// at is when the delivery was queued: a reset of the Store's data
	// since then drops it.
	at stamp
}

// headerNames are the names of the vendor-specific headers.
type headerNames struct {
	event, delivery, hookID, targetID, targetType, signature256, signature1 string
}

// newHeaderNames returns the header names of vendor.
func newHeaderNames(vendor string) headerNames {
	h := headerNames{
		event:        "X-" + vendor + "-Event",
		delivery:     "X-" + vendor + "-Delivery",
		hookID:       "X-" + vendor + "-Hook-ID",
		targetID:     "X-" + vendor + "-Hook-Installation-Target-ID",
		targetType:   "X-" + vendor + "-Hook-Installation-Target-Type",
		signature256: "X-" + vendor + "-Signature-256",
		signature1:   "X-" + vendor + "-Signature",
	}
	if strings.EqualFold(vendor, "GitHub") {
		h.signature256, h.signature1 = "X-Hub-Signature-256", "X-Hub-Signature"
	}
	return h
}

// send delivers o, as many times as the attempts allow while it fails, and
// records each attempt as a delivery of o's hook. Once Close has given up, it
// sends nothing more, and counts o as abandoned; once a reset has replaced
// the data that o belongs to, it neither sends nor records anything more,
// and counts o as dropped.
func (n *Notifier) send(o *outgoing) {
	for attempt := 1; ; attempt++ {
		if n.ctx.Err() != nil {
			n.abandoned.Add(1)
			return
		}
		if !n.sendable(o.at) {
			n.droppedAtReset()
			return
		}
		d := n.post(o)
		if !o.at.live() && n.ctx.Err() == nil {
			n.droppedAtReset() // cut short by a reset
			return
		}
		n.record(o.at, d)
		if d.StatusCode >= 200 && d.StatusCode <= 299 {
			n.delivered.Add(1)
			n.log.Debug("webhook: delivered", "hook_id", o.hook.ID, "delivery", o.guid, "event", o.event, "action", o.action)
			return
		}
		if n.ctx.Err() != nil {
			n.abandoned.Add(1) // cut short by Close
			return
		}
		if attempt >= n.attempts {
			n.failed.Add(1)
			n.failures.add(fmt.Sprintf("hook %d: %s", o.hook.ID, d.Status))
			n.log.Debug("webhook: delivery failed", "hook_id", o.hook.ID, "delivery", o.guid, "event", o.event,
				"action", o.action, "attempts", attempt, "status", d.Status)
			return
		}
		sleep(o.at.era.ctx, n.retryWait<<(attempt-1))
	}
}

// post sends o once and returns the record of the delivery.
func (n *Notifier) post(o *outgoing) Delivery {
	h := o.hook
	d := Delivery{HookID: h.ID, GUID: o.guid, DeliveredAt: time.Now().UTC(), Redelivery: o.redelivery,
		Event: o.event, Action: o.action, InstallationID: o.installationID, RepositoryID: o.repositoryID, URL: h.Config.URL}
	body, contentType := o.payload, "application/json"
	if h.Config.ContentType == "form" {
		body, contentType = []byte(url.Values{"payload": {string(o.payload)}}.Encode()), "application/x-www-form-urlencoded"
	}
	req, err := http.NewRequest(http.MethodPost, h.Config.URL, bytes.NewReader(body))
	if err != nil {
		d.Status = "invalid URL"
		return d
	}
	req.Header.Set("Accept", "*/*")
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("User-Agent", n.userAgent)
	req.Header.Set(n.header.event, o.event)
	req.Header.Set(n.header.delivery, o.guid)
	req.Header.Set(n.header.hookID, strconv.FormatInt(h.ID, 10))
	kind, target := "repository", strconv.FormatInt(h.Scope.RepositoryID, 10)
	if h.Scope.Organization != "" {
		kind, target = "organization", strconv.FormatInt(n.objects.user(h.Scope.Organization, "Organization").ID, 10)
	}
	req.Header.Set(n.header.targetID, target)
	req.Header.Set(n.header.targetType, kind)
	if h.Config.Secret != "" {
		secret := []byte(h.Config.Secret)
		req.Header.Set(n.header.signature256, Sign(secret, body))
		req.Header.Set(n.header.signature1, signSHA1(secret, body))
	}
	d.Request = recordedRequest(req.Header, body)

	ctx, cancel := context.WithTimeout(o.at.era.ctx, n.timeout)
	defer cancel()
	client := n.client
	if h.Config.InsecureSSL == "1" {
		client = n.insecure
	}
	start := time.Now()
	resp, err := client.Do(req.WithContext(ctx))
	if err != nil {
		d.Duration, d.Status = time.Since(start), failure(err)
		return d
	}
	var readErr error
	d.Response, readErr = recordedAnswer(resp)
	resp.Body.Close()
	d.Duration, d.StatusCode = time.Since(start), resp.StatusCode
	switch {
	case readErr != nil && resp.StatusCode >= 200 && resp.StatusCode <= 299:
		// The receiver answered, then broke off its answer: its status
		// stands, as GitHub records it.
		d.Status = "OK"
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		d.Status = "OK"
	default:
		d.Status = "Invalid HTTP Response: " + strconv.Itoa(resp.StatusCode)
	}
	return d
}

// record stores d, a delivery queued at at, bounded in time; a failure is
// logged, unless a reset cut the record short, and changes nothing else.
func (n *Notifier) record(at stamp, d Delivery) {
	ctx, cancel := n.recordContext(at)
	defer cancel()
	if _, err := n.store.AddDelivery(ctx, d); err != nil && (at.live() || n.ctx.Err() != nil) {
		n.log.Error("webhook: cannot record a delivery", "hook_id", d.HookID, "delivery", d.GUID, "err", err)
	}
}

// recordedPayload returns the JSON document that the request of a recorded
// delivery carried, or an error when it was cut.
func recordedPayload(req Message) ([]byte, error) {
	if req.Truncated {
		return nil, errors.New("webhook: the delivery's payload was longer than its record, and cannot be sent again")
	}
	if strings.HasPrefix(req.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		form, err := url.ParseQuery(string(req.Body))
		if err != nil {
			return nil, fmt.Errorf("webhook: the delivery's form does not parse: %w", err)
		}
		return []byte(form.Get("payload")), nil
	}
	return req.Body, nil
}

// failure words err, an error of sending a delivery, as GitHub words it;
// a delivery cut short by Close says so.
func failure(err error) string {
	var netErr net.Error
	var opErr *net.OpError
	switch {
	case headersTooLarge(err):
		return statusHeadersTooLarge
	case errors.Is(err, context.Canceled):
		return "not answered before the server stopped"
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) && netErr.Timeout():
		return "timed out"
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return "failed to connect to host"
	}
	return "failed to read the answer"
}

// statusHeadersTooLarge is the status of a delivery whose answer headers
// were longer than the client reads.
const statusHeadersTooLarge = "Invalid HTTP Response: headers too large"

// headersTooLarge reports whether err is a client's refusal of answer
// headers longer than its transport's MaxResponseHeaderBytes, over HTTP/1
// or HTTP/2. net/http says so only in the error's text.
func headersTooLarge(err error) bool {
	text := err.Error()
	return strings.Contains(text, "server response headers exceeded") ||
		strings.Contains(text, "response header list larger than advertised limit")
}

// signSHA1 returns the value of the X-Hub-Signature header for body under
// secret: "sha1=" and the hex of the HMAC-SHA1, which older receivers
// check.
func signSHA1(secret, body []byte) string {
	mac := hmac.New(sha1.New, secret)
	mac.Write(body)
	return "sha1=" + hex.EncodeToString(mac.Sum(nil))
}

// sleep waits for d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
