module github.com/issuefields/issuefields

go 1.24.0

require (
	github.com/google/go-cmp v0.7.0
	golang.org/x/text v0.34.0
	golang.org/x/time v0.14.0
)
