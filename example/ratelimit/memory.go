package ratelimit

import (
	"sync"
	"time"
)

// maxWindows bounds the windows that a Memory keeps: at the bound, those
// that have ended go, and if that is not an eighth of them, as many more,
// at random, whose budgets are whole again. A window takes about 100 bytes,
// so the bound is about 10 MB.
const maxWindows = 100_000

// Memory is the Counter of one process: every window is in memory, and
// the counts are exact. Its zero value is not usable; call NewMemory.
type Memory struct {
	now func() time.Time

	mu      sync.Mutex
	windows map[string]*window
}

// window is one key's fixed window: the requests counted in it and its end.
type window struct {
	used int
	end  time.Time
}

var _ Counter = (*Memory)(nil)

// NewMemory returns an empty Memory whose clock is now (nil means
// time.Now); tests give a clock of their own to make windows end.
func NewMemory(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{now: now, windows: make(map[string]*window)}
}

// Spend counts a request against key's window, as Counter says.
func (m *Memory) Spend(key string, period time.Duration, limit int) (used int, reset time.Time, ok bool) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.windows[key]
	if w == nil || !now.Before(w.end) {
		if w == nil {
			m.makeRoom(now)
			w = new(window)
			m.windows[key] = w
		}
		*w = window{end: now.Add(period)}
	}
	if w.used >= limit {
		return w.used, w.end, false
	}
	w.used++
	return w.used, w.end, true
}

// Refund takes back a request of key's window that ends at reset.
func (m *Memory) Refund(key string, reset time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if w := m.windows[key]; w != nil && w.end.Equal(reset) && w.used > 0 {
		w.used--
	}
}

// Peek returns where key's window stands, as Counter says.
func (m *Memory) Peek(key string, period time.Duration) (used int, reset time.Time) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if w := m.windows[key]; w != nil && now.Before(w.end) {
		return w.used, w.end
	}
	return 0, now.Add(period)
}

// Reset forgets every window.
func (m *Memory) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.windows = make(map[string]*window)
}

// makeRoom makes room for a new window at the bound, as maxWindows says.
// m.mu must be held.
func (m *Memory) makeRoom(now time.Time) {
	if len(m.windows) < maxWindows {
		return
	}
	for key, w := range m.windows {
		if !now.Before(w.end) {
			delete(m.windows, key)
		}
	}
	for key := range m.windows {
		if len(m.windows) <= maxWindows-maxWindows/8 {
			break
		}
		delete(m.windows, key)
	}
}
