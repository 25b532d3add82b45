package standin

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"net/netip"
	"slices"
	"strings"

	"github.com/issuefields/issuefields/example/internal/bearer"
	"github.com/issuefields/issuefields/example/internal/jsonanswer"
)

// guard returns h served only to the clients that cfg allows:
//
//   - without an admin token, a client that is not on loopback gets 404, as
//     if the tools were not there;
//   - a request with a Host that is not one of cfg.Hosts, or an Origin other
//     than the server's own, gets 403;
//   - with an admin token, a request without it, as a Bearer token or as the
//     password of HTTP Basic authentication, gets 401 with a challenge for
//     Basic, so that a browser asks for it.
func guard(cfg Config, h http.Handler) http.Handler {
	want := sha256.Sum256([]byte(cfg.AdminToken))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case cfg.AdminToken == "" && !fromLoopback(r):
			jsonanswer.Write(w, http.StatusNotFound, message("Not Found"))
		case !slices.ContainsFunc(cfg.Hosts, func(host string) bool { return strings.EqualFold(host, r.Host) }):
			jsonanswer.Write(w, http.StatusForbidden, message("Forbidden: the Host header does not name this server"))
		case r.Header.Get("Origin") != "" && r.Header.Get("Origin") != ownOrigin(r):
			jsonanswer.Write(w, http.StatusForbidden, message("Forbidden: a page of another origin may not use these routes"))
		case cfg.AdminToken != "" && !presents(r, want):
			w.Header().Set("WWW-Authenticate", `Basic realm="issuefields", charset="UTF-8"`)
			jsonanswer.Write(w, http.StatusUnauthorized, message("Requires the admin token (-admin-token), as a Bearer token or the password of Basic authentication"))
		default:
			h.ServeHTTP(w, r)
		}
	})
}

// fromLoopback reports whether r comes from a loopback address: 127.0.0.0/8
// or ::1.
func fromLoopback(r *http.Request) bool {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	return err == nil && ap.Addr().Unmap().IsLoopback()
}

// ownOrigin returns the origin of the server as r names it.
func ownOrigin(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}

// presents reports whether r carries the admin token whose SHA-256 is want,
// as a Bearer token or as the password of Basic authentication. The hashes
// are compared in constant time, so that neither the token's bytes nor its
// length show in the time of an answer.
func presents(r *http.Request, want [sha256.Size]byte) bool {
	token, ok := bearer.Token(r)
	if !ok {
		_, token, ok = r.BasicAuth()
	}
	got := sha256.Sum256([]byte(token))
	return ok && subtle.ConstantTimeCompare(got[:], want[:]) == 1
}
