package server

import (
	"bufio"
	"io"
	"log/slog"
	"sync"
	"time"
)

// logFlushInterval is how often the log's buffer is written out, and
// logBufferBytes its size: at a line per request, a busy server fills it
// several times an interval, and each time costs a write to stderr.
const (
	logFlushInterval = 100 * time.Millisecond
	logBufferBytes   = 64 << 10
)

// newLogger returns a logger that writes the records of level and above to
// w in format, "text" (slog.TextHandler's key=value pairs) or "json"
// (slog.JSONHandler's one object per line), through a buffer that is written
// out every logFlushInterval, and a function that writes out what is left,
// to be called when the server has stopped.
func newLogger(format string, level slog.Level, w io.Writer) (*slog.Logger, func()) {
	buf := &logBuffer{w: bufio.NewWriterSize(w, logBufferBytes)}
	tick, stop := time.NewTicker(logFlushInterval), make(chan struct{})
	go func() {
		for {
			select {
			case <-tick.C:
				buf.flush()
			case <-stop:
				return
			}
		}
	}()
	closeLog := func() {
		tick.Stop()
		close(stop)
		buf.flush()
	}
	opts := &slog.HandlerOptions{Level: level}
	if format == logJSON {
		return slog.New(slog.NewJSONHandler(buf, opts)), closeLog
	}
	return slog.New(slog.NewTextHandler(buf, opts)), closeLog
}

// logBuffer is a buffered writer that is safe for concurrent use, so that
// one goroutine can write it out while the log's handler writes to it.
type logBuffer struct {
	mu sync.Mutex
	w  *bufio.Writer
}

// Write adds p to the buffer, and writes the buffer out when p fills it.
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

// flush writes out what the buffer holds.
func (b *logBuffer) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.w.Flush() // the log has nowhere to report its own failure
}
