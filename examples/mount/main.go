// Command mount is an application that already has an http.ServeMux with
// routes of its own, and adds the Issue Field Values API to it under /api/,
// with its own tokens and a memstore.Store it fills at start-up:
//
//	go run ./examples/mount
//
// and, from another terminal:
//
//	curl -sS http://127.0.0.1:8081/api/repos/acme/widgets/issues/1/issue-field-values \
//	  -H 'Authorization: Bearer alice-token'
//
// Copy it to start an application of your own: replace seed with your data
// (or a Store over your database) and tokens with your token lookup.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// shutdownTimeout bounds how long a stop waits for requests in flight.
const shutdownTimeout = 10 * time.Second

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "`host:port` to listen on")
	flag.Parse()
	app, err := newApp()
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Addr: *addr, Handler: app, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.ListenAndServe() }()
	fmt.Printf("serving on http://%s/ (the API under /api/); Ctrl-C stops\n", *addr)
	select {
	case err := <-served:
		log.Fatal(err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}
