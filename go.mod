module github.com/issuefields/issuefields

go 1.24

require github.com/google/go-cmp v0.7.0 // indirect
