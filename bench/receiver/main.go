// Command receiver is the webhook receiver that bench/webhook.sh delivers to:
// it reads each delivery's body and answers 204, at once or after -delay.
//
//	go run ./bench/receiver -addr 127.0.0.1:8082 -delay 1m
package main

import (
	"flag"
	"io"
	"log"
	"net"
	"net/http"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8082", "`host:port` to listen on")
	delay := flag.Duration("delay", 0, "how long to wait before answering each delivery; the sender may give up first")
	flag.Parse()
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if *delay > 0 {
			select {
			case <-time.After(*delay):
			case <-r.Context().Done():
				return
			}
		}
		w.WriteHeader(http.StatusNoContent)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("receiver: %v", err)
	}
	log.Printf("listening on http://%s/", ln.Addr())
	log.Fatal(http.Serve(ln, handler))
}
