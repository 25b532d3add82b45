module github.com/issuefields/issuefields

go 1.24
