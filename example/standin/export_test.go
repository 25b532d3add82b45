package standin

import "time"

// WithTimings returns cfg with an event stream's heartbeat and the deadline
// of each write of an answer shortened, for tests that would otherwise wait
// for the real ones.
func WithTimings(cfg Config, heartbeat, writeBound time.Duration) Config {
	cfg.heartbeat, cfg.writeBound = heartbeat, writeBound
	return cfg
}
