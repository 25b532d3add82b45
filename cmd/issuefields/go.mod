module github.com/issuefields/issuefields/cmd/issuefields

go 1.24.0

require github.com/issuefields/issuefields/example v0.0.0

require (
	github.com/issuefields/issuefields v0.0.0 // indirect
	golang.org/x/text v0.34.0 // indirect
	golang.org/x/time v0.14.0 // indirect
)

replace (
	github.com/issuefields/issuefields => ../..
	github.com/issuefields/issuefields/example => ../../example
)
