module github.com/issuefields/issuefields/compat

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/google/go-github/v92 v92.0.0
)

require github.com/google/go-querystring v1.2.0 // indirect
