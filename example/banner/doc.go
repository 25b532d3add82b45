// Package banner writes the start-up message of the example server: what it
// serves and whence, the organizations and repositories of its data file,
// each token with what it may do, and curl commands to try, each with the
// status it gets when they are run in order. It tells what a token may do by
// asking the API's handler, over the server's store and the data file's
// tokens, with requests that change nothing.
package banner
