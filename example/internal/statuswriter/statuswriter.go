// Package statuswriter notes the status of an answer for the middlewares of
// the example server that record or count requests once they are answered.
package statuswriter

import "net/http"

// A Writer is an http.ResponseWriter that notes the final status it
// answers.
type Writer struct {
	http.ResponseWriter
	code int
}

// New returns a Writer that writes to w.
func New(w http.ResponseWriter) *Writer { return &Writer{ResponseWriter: w} }

// WriteHeader notes the first final status, and writes it.
func (w *Writer) WriteHeader(code int) {
	if w.code == 0 && code >= 200 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write notes a status of 200 if none was written, and writes b.
func (w *Writer) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Status returns the status answered: 200 when the handler wrote nothing,
// as net/http then answers.
func (w *Writer) Status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}

// Unwrap returns the ResponseWriter, for http.ResponseController.
func (w *Writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }
