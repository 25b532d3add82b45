module github.com/issuefields/issuefields/pgstore/cmd/issuefields-postgres

go 1.25.0

replace (
	github.com/issuefields/issuefields => ../../..
	github.com/issuefields/issuefields/example => ../../../example
	github.com/issuefields/issuefields/pgstore => ../..
)

require (
	github.com/issuefields/issuefields v0.0.0
	github.com/issuefields/issuefields/example v0.0.0
	github.com/issuefields/issuefields/pgstore v0.0.0
	github.com/jackc/pgx/v5 v5.12.0
)

require (
	github.com/agnivade/levenshtein v1.2.2 // indirect
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/prometheus/client_golang v1.23.2 // indirect
	github.com/prometheus/client_model v0.6.2 // indirect
	github.com/prometheus/common v0.66.1 // indirect
	github.com/prometheus/procfs v0.16.1 // indirect
	github.com/vektah/gqlparser/v2 v2.5.64 // indirect
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/text v0.41.0 // indirect
	golang.org/x/time v0.14.0 // indirect
	google.golang.org/protobuf v1.36.8 // indirect
)
