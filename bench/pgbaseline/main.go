// Command pgbaseline is the bare server that bench/postgres.sh measures the
// example over pgstore against: net/http's ServeMux and a pgx pool, with the
// API's path, that answers a list with one primary-key SELECT of an issue's
// stored values and a write with one primary-key UPDATE that stores the
// request's body, on the tables of pgstore. It checks nothing (no token, no
// validation) and renders nothing: it is the most that this stack can serve
// on the machine, not a server to use.
//
//	go run . -addr 127.0.0.1:8082 -postgres "$DATABASE_URL" -repository 1
package main

import (
	"context"
	"flag"
	"io"
	"log"
	"net"
	"net/http"
	"strconv"

	"github.com/jackc/pgx/v5/pgxpool"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8082", "`host:port` to listen on")
	dsn := flag.String("postgres", "", "PostgreSQL connection `URL` of a database that pgstore migrated and filled")
	repository := flag.Int64("repository", 1, "`ID` of the repository whose issues the server reads and writes")
	flag.Parse()
	pool, err := pgxpool.New(context.Background(), *dsn)
	if err != nil {
		log.Fatalf("pgbaseline: -postgres: %v", err)
	}
	const path = "/repos/{owner}/{repo}/issues/{issue_number}/issue-field-values"
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
		number, err := strconv.ParseInt(r.PathValue("issue_number"), 10, 64)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		var body []byte
		err = pool.QueryRow(r.Context(), `SELECT field_values FROM issues WHERE repository_id = $1 AND number = $2`,
			*repository, number).Scan(&body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(body)
	})
	mux.HandleFunc("POST "+path, func(w http.ResponseWriter, r *http.Request) {
		number, err := strconv.ParseInt(r.PathValue("issue_number"), 10, 64)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_, err = pool.Exec(r.Context(), `UPDATE issues SET field_values = $3, version = version + 1 WHERE repository_id = $1 AND number = $2`,
			*repository, number, string(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(body)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("pgbaseline: %v", err)
	}
	log.Printf("listening on http://%s/", ln.Addr())
	log.Fatal(http.Serve(ln, mux))
}
