package broadcast

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
)

// store wraps paho's persistent store for two reasons.
//
// Order: paho's FileStore returns its messages oldest first by file
// modification time, and resends them in that order after a reconnect or a
// restart. Linux stamps files from a coarse clock (a jiffy, 1–10 ms), so
// moves written in the same tick tie, and sort.Sort may swap them. Put
// therefore stamps each file with a strictly increasing time.
//
// Acknowledgement: paho completes a publish token early when it resends
// the message after a reconnect, so a token does not say "delivered". The
// store does: paho deletes the outbound key when the PUBACK arrives. The
// publisher sends a QoS 1 message only when no earlier one is pending.
type store struct {
	mqtt.Store
	dir string // "" for the in-memory store

	mu      sync.Mutex
	last    time.Time
	pending map[string]bool // outbound keys ("o.<id>") held
	changed chan struct{}   // closed and replaced whenever pending shrinks
}

var _ mqtt.Store = (*store)(nil)

func newStore(dir string) *store {
	s := &store{dir: dir, pending: map[string]bool{}, changed: make(chan struct{})}
	if dir == "" {
		s.Store = mqtt.NewOrderedMemoryStore()
	} else {
		s.Store = mqtt.NewFileStore(dir)
	}
	return s
}

func (s *store) Open() {
	s.Store.Open()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = time.Now()
	for _, key := range s.Store.All() {
		if isOutbound(key) {
			s.pending[key] = true
		}
		if s.dir == "" {
			continue
		}
		if fi, err := os.Stat(s.path(key)); err == nil && fi.ModTime().After(s.last) {
			s.last = fi.ModTime()
		}
	}
}

func (s *store) Put(key string, m packets.ControlPacket) {
	s.Store.Put(key, m)
	s.mu.Lock()
	defer s.mu.Unlock()
	if isOutbound(key) {
		s.pending[key] = true
	}
	if s.dir == "" {
		return
	}
	t := time.Now()
	if !t.After(s.last) {
		t = s.last.Add(time.Microsecond)
	}
	s.last = t
	// An error means the store was closed and paho did not write the file;
	// paho has logged that.
	_ = os.Chtimes(s.path(key), t, t)
}

func (s *store) Del(key string) {
	s.Store.Del(key)
	s.forget(key)
}

func (s *store) Reset() {
	s.Store.Reset()
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.pending)
	s.notifyLocked()
}

func (s *store) forget(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending[key] {
		delete(s.pending, key)
		s.notifyLocked()
	}
}

func (s *store) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Pending counts the outbound messages not yet acknowledged, and returns a
// channel closed when that count next falls.
func (s *store) Pending() (int, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pending), s.changed
}

// path is where paho's FileStore keeps key (filestore.go: fullpath).
func (s *store) path(key string) string { return filepath.Join(s.dir, key+".msg") }

func isOutbound(key string) bool { return strings.HasPrefix(key, "o.") }
