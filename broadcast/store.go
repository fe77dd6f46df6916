package broadcast

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
)

// store is paho's persistent store, rewritten for three reasons.
//
// Disk errors: paho's FileStore panics on any I/O error, a full or
// read-only SD card among them, which would stop the board mid-game. This
// store never panics: on a disk error it keeps messages in memory from
// then on (they are lost only if the board also restarts), reports the
// fault (Config.OnStoreFault and a "fault" event) and tries the disk again
// at most every storeRetry.
//
// Order: paho returns stored messages oldest first and resends them in
// that order after a reconnect or a restart. Each message gets a sequence
// number; on disk its file's modification time is stamped strictly
// increasing, which is how the order survives a restart (Linux stamps
// files from a coarse clock, so moves written in the same tick would tie).
// The files are paho's (<key>.msg, written through <key>.tmp), so a store
// directory from an earlier version is read as it was.
//
// Acknowledgement: paho completes a publish token early when it resends
// the message after a reconnect, so a token does not say "delivered". The
// store does: paho deletes the outbound key when the PUBACK arrives. The
// publisher sends a QoS 1 message only when no earlier one is pending.
type store struct {
	dir     string // "" keeps everything in memory
	onFault func(error)
	now     func() time.Time

	mu       sync.Mutex
	opened   bool
	seq      uint64
	entries  map[string]*entry
	degraded error     // the disk error that put the store in memory; nil when on disk
	failedAt time.Time // when the disk last failed
	stamp    time.Time // the latest modification time given to a file
	changed  chan struct{}
}

type entry struct {
	seq uint64
	pk  packets.ControlPacket // nil when the message is on disk
}

// storeRetry is how long a degraded store waits before trying the disk
// again.
const storeRetry = 30 * time.Second

var _ mqtt.Store = (*store)(nil)

func newStore(dir string, onFault func(error)) *store {
	if onFault == nil {
		onFault = func(error) {}
	}
	return &store{dir: dir, onFault: onFault, now: time.Now, entries: map[string]*entry{}, changed: make(chan struct{})}
}

func (s *store) Open() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opened = true
	s.stamp = s.now()
	if s.dir == "" {
		return
	}
	files, err := os.ReadDir(s.dir)
	if err != nil {
		s.failLocked(fmt.Errorf("reading the store directory: %w", err))
		return
	}
	type stored struct {
		key string
		mod time.Time
	}
	var found []stored
	for _, f := range files {
		key, ok := strings.CutSuffix(f.Name(), ".msg")
		if !ok || f.IsDir() {
			continue
		}
		info, err := f.Info()
		if err != nil {
			continue // removed meanwhile
		}
		found = append(found, stored{key, info.ModTime()})
		if info.ModTime().After(s.stamp) {
			s.stamp = info.ModTime()
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].mod.Before(found[j].mod) })
	for _, f := range found {
		s.seq++
		s.entries[f.key] = &entry{seq: s.seq}
	}
}

func (s *store) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opened = false
}

func (s *store) Put(key string, m packets.ControlPacket) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.opened {
		return
	}
	s.seq++
	e := &entry{seq: s.seq}
	if old := s.entries[key]; old != nil && old.pk == nil {
		s.removeLocked(key) // replaced: the new one may not reach the disk
	}
	if !s.onDiskLocked() || s.writeLocked(key, m) != nil {
		e.pk = clonePacket(m)
	}
	s.entries[key] = e
}

// clonePacket copies a packet by writing and reading it. The store keeps
// and hands out copies, never paho's own packets: paho's resume marks a
// message it gets from the store as a duplicate (Dup) while its outgoing
// goroutine may still be writing the very same packet, a data race with
// a memory store (eclipse-paho/paho.mqtt.golang#703). A copy that cannot
// be made is the packet itself.
func clonePacket(m packets.ControlPacket) packets.ControlPacket {
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		return m
	}
	pk, err := packets.ReadPacket(&buf)
	if err != nil {
		return m
	}
	return pk
}

// onDiskLocked reports whether to try the disk: there is one, and it has
// not failed within storeRetry.
func (s *store) onDiskLocked() bool {
	return s.dir != "" && (s.degraded == nil || s.now().Sub(s.failedAt) >= storeRetry)
}

// writeLocked writes m to key's file, as paho's FileStore does, and
// stamps it after every earlier one.
func (s *store) writeLocked(key string, m packets.ControlPacket) error {
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		return err // not a disk error; kept in memory
	}
	tmp := filepath.Join(s.dir, key+".tmp")
	err := os.WriteFile(tmp, buf.Bytes(), 0o600)
	if err == nil {
		err = os.Rename(tmp, s.path(key))
	}
	if err == nil {
		t := s.now()
		if !t.After(s.stamp) {
			t = s.stamp.Add(time.Microsecond)
		}
		s.stamp = t
		err = os.Chtimes(s.path(key), t, t)
	}
	if err != nil {
		os.Remove(tmp)
		os.Remove(s.path(key))
		s.failLocked(fmt.Errorf("writing message %s: %w", key, err))
		return err
	}
	if s.degraded != nil {
		s.degraded = nil
		go s.onFault(nil)
	}
	return nil
}

// failLocked puts the store in memory and reports the first failure.
func (s *store) failLocked(err error) {
	first := s.degraded == nil
	s.degraded, s.failedAt = err, s.now()
	if first {
		go s.onFault(err) // not under the lock: the report is published
	}
}

func (s *store) Get(key string) packets.ControlPacket {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[key]
	if !s.opened || e == nil {
		return nil
	}
	if e.pk != nil {
		return clonePacket(e.pk)
	}
	b, err := os.ReadFile(s.path(key))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.failLocked(fmt.Errorf("reading message %s: %w", key, err))
		}
		return nil
	}
	pk, err := packets.ReadPacket(bytes.NewReader(b))
	if err != nil {
		// A torn file from a power cut: set it aside as paho does.
		_ = os.Rename(s.path(key), filepath.Join(s.dir, key+".CORRUPT"))
		return nil
	}
	return pk
}

// All returns the keys oldest first.
func (s *store) All() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.opened {
		return nil
	}
	keys := make([]string, 0, len(s.entries))
	for k := range s.entries {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return s.entries[keys[i]].seq < s.entries[keys[j]].seq })
	return keys
}

func (s *store) Del(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delLocked(key)
}

func (s *store) delLocked(key string) {
	e := s.entries[key]
	if e == nil {
		return
	}
	delete(s.entries, key)
	if e.pk == nil {
		s.removeLocked(key)
	}
	if isOutbound(key) {
		s.notifyLocked()
	}
}

// removeLocked deletes key's file; failing to is a fault (the message
// would be sent again after a restart) but loses nothing.
func (s *store) removeLocked(key string) {
	if err := os.Remove(s.path(key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.failLocked(fmt.Errorf("deleting message %s: %w", key, err))
	}
}

func (s *store) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for key := range s.entries {
		s.delLocked(key)
	}
	s.notifyLocked()
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
	n := 0
	for k := range s.entries {
		if isOutbound(k) {
			n++
		}
	}
	return n, s.changed
}

// Degraded returns the disk error that put the store in memory, or nil.
func (s *store) Degraded() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.degraded
}

// path is where paho's FileStore keeps key (filestore.go: fullpath).
func (s *store) path(key string) string { return filepath.Join(s.dir, key+".msg") }

func isOutbound(key string) bool { return strings.HasPrefix(key, "o.") }
