// Package datafile is the data file of the example server: the
// organizations, issue fields, repositories, issues, values and tokens that
// it serves, in the format that docs/data-file.md describes, and the
// built-in demo data, which is such a file.
//
// [Parse] and [Read] decode a file strictly, and name the place of an error:
// the line and column of a syntax error, and otherwise the path in the file,
// such as repositories[0].issues[1].number. [Load] puts a file into a store
// that is empty, checking the rules that decoding does not, and gives the
// file's [Tokens], which verify the tokens that requests carry; [Loaded.Over]
// gives them over a store that holds data of its own instead.
package datafile
