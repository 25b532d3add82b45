// Command baseline is the bare standard-library server that bench/loopback.sh
// measures the example server against: a ServeMux with the API's routes that
// answers a list with a fixed JSON body and a write by decoding the request
// body into a generic JSON value and answering the same fixed body.
//
//	go run ./bench/baseline -addr 127.0.0.1:8081 -body list.json
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8081", "`host:port` to listen on")
	bodyFile := flag.String("body", "", "`file` holding the JSON body of every answer")
	flag.Parse()
	body, err := os.ReadFile(*bodyFile)
	if err != nil {
		log.Fatalf("baseline: -body: %v", err)
	}
	mux := http.NewServeMux()
	const path = "/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"
	answer := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(body)
	}
	mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) { answer(w) })
	mux.HandleFunc("POST "+path, func(w http.ResponseWriter, r *http.Request) {
		var v any
		if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		answer(w)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("baseline: %v", err)
	}
	log.Printf("listening on http://%s/", ln.Addr())
	log.Fatal(http.Serve(ln, mux))
}
