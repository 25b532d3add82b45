// Package jsonanswer writes the JSON answers that the example server and its
// test tools give outside the API's handler.
package jsonanswer

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// Write answers with status and v as JSON, ending with a newline as the
// API's bodies do. A value that cannot be encoded is answered 500.
func Write(w http.ResponseWriter, status int, v any) {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, "Internal server error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(body.Bytes())
}
