package server

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
)

// certificate loads the certificate and key of -tls-cert and -tls-key, or
// returns nil without them, so that a missing or broken pair stops the
// server at start-up rather than at its first client.
func (opts options) certificate() (*tls.Certificate, error) {
	if opts.tlsCert == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(opts.tlsCert, opts.tlsKey)
	if err != nil {
		return nil, fmt.Errorf("-tls-cert %s and -tls-key %s: %w (docs/operations.md shows how to make a local certificate)", opts.tlsCert, opts.tlsKey, err)
	}
	return &cert, nil
}

// scheme returns the scheme of the server's own URLs: https with -tls-cert,
// else http.
func (opts options) scheme() string {
	if opts.tlsCert != "" {
		return "https"
	}
	return "http"
}

// serve serves srv on ln until srv stops, keeping at most maxConns
// connections open (boundConns): over TLS with cert, offering HTTP/2 and
// HTTP/1.1 as net/http does, or in the clear when cert is nil.
func serve(srv *http.Server, ln net.Listener, cert *tls.Certificate, maxConns int) error {
	if cert != nil {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{*cert}}
	}
	bounded := boundConns(ln, maxConns, srv.TLSConfig)
	srv.ConnState = bounded.track
	if cert == nil {
		return srv.Serve(bounded)
	}
	return srv.ServeTLS(bounded, "", "")
}
