package standin

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// answerChunk is how many bytes of JSON serveRequests gathers before it
// writes them: a few records, or part of one.
const answerChunk = 32 << 10

// serveRequests answers GET /_issuefields/requests: 200, the recorded
// requests of j as a JSON array, newest first, as Requests returns them.
// It encodes them one at a time from a snapshot of j's records, writing as
// it goes, so that the answer holds the records' JSON a chunk at a time,
// not the whole of it, whatever the journal holds. The answer ends at the
// first write that fails, such as one past its deadline.
func (j *Journal) serveRequests(w http.ResponseWriter) {
	records := j.snapshot()
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('[')
	for i := range records {
		if i > 0 {
			buf.WriteByte(',')
		}
		// A Request always encodes: its Body is nil or what maskSecrets
		// encoded.
		_ = enc.Encode(records[i].masked())
		buf.Truncate(buf.Len() - 1) // the newline that Encode adds
		records[i] = Request{}      // what was written need not be kept
		if buf.Len() >= answerChunk {
			if _, err := w.Write(buf.Bytes()); err != nil {
				return
			}
			buf.Reset()
		}
	}
	buf.WriteString("]\n")
	_, _ = w.Write(buf.Bytes())
}
