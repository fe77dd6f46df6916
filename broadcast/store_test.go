package broadcast

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/eclipse/paho.mqtt.golang/packets"
)

func publishPk(id uint16) *packets.PublishPacket {
	pk := packets.NewControlPacket(packets.Publish).(*packets.PublishPacket)
	pk.Qos, pk.MessageID, pk.TopicName, pk.Payload = 1, id, "zertz/b1/moves", []byte{byte(id)}
	return pk
}

// faults records what a store reports.
type faults struct {
	mu  sync.Mutex
	got []error
	ch  chan struct{}
}

func newFaults() *faults { return &faults{ch: make(chan struct{}, 16)} }

func (f *faults) report(err error) {
	f.mu.Lock()
	f.got = append(f.got, err)
	f.mu.Unlock()
	f.ch <- struct{}{}
}

func (f *faults) next(t *testing.T) error {
	t.Helper()
	select {
	case <-f.ch:
	case <-time.After(wait):
		t.Fatal("no fault reported")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.got[len(f.got)-1]
}

func payloadOf(pk packets.ControlPacket) byte {
	if p, ok := pk.(*packets.PublishPacket); ok && len(p.Payload) == 1 {
		return p.Payload[0]
	}
	return 0
}

// A full disk: the temporary file is /dev/full, so the write fails with
// ENOSPC as on a full SD card. Paho's FileStore panics here.
func TestStoreFullDisk(t *testing.T) {
	dir := t.TempDir()
	f := newFaults()
	s := newStore(dir, f.report)
	s.Open()
	s.Put("o.1", publishPk(1))
	if err := os.Symlink("/dev/full", filepath.Join(dir, "o.2.tmp")); err != nil {
		t.Skip(err)
	}
	s.Put("o.2", publishPk(2))
	if err := f.next(t); !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "o.2") {
		t.Errorf("fault = %v; want ENOSPC naming the message", err)
	}
	s.Put("o.3", publishPk(3))
	if got := strings.Join(s.All(), " "); got != "o.1 o.2 o.3" {
		t.Errorf("All = %q; want o.1 o.2 o.3 in order", got)
	}
	for i, key := range []string{"o.1", "o.2", "o.3"} {
		if got := payloadOf(s.Get(key)); got != byte(i+1) {
			t.Errorf("Get(%s) payload %d; want %d", key, got, i+1)
		}
	}
	if n, _ := s.Pending(); n != 3 {
		t.Errorf("Pending = %d; want 3", n)
	}
	if s.Degraded() == nil {
		t.Error("Degraded = nil after a disk error")
	}
	for _, key := range []string{"o.1", "o.2", "o.3"} {
		s.Del(key)
	}
	if n, _ := s.Pending(); n != 0 || len(s.All()) != 0 {
		t.Errorf("after Del: Pending %d, All %q", n, s.All())
	}
}

// The directory vanishes (a card pulled, a read-only remount): messages
// stay in memory; once the disk is back and storeRetry has passed, the
// store writes files again and says so.
func TestStoreRecovers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	os.Mkdir(dir, 0o700)
	now := time.Unix(1000, 0)
	f := newFaults()
	s := newStore(dir, f.report)
	s.now = func() time.Time { return now }
	s.Open()
	os.RemoveAll(dir)
	s.Put("o.1", publishPk(1))
	if err := f.next(t); err == nil {
		t.Fatal("no disk error reported")
	}
	os.Mkdir(dir, 0o700)
	s.Put("o.2", publishPk(2)) // within storeRetry: memory, no disk attempt
	if _, err := os.Stat(filepath.Join(dir, "o.2.msg")); err == nil {
		t.Error("o.2 written within the retry interval")
	}
	now = now.Add(storeRetry)
	s.Put("o.3", publishPk(3))
	if err := f.next(t); err != nil {
		t.Errorf("after recovery: fault %v; want nil (back on disk)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "o.3.msg")); err != nil {
		t.Errorf("o.3 not on disk after recovery: %v", err)
	}
	if got := strings.Join(s.All(), " "); got != "o.1 o.2 o.3" {
		t.Errorf("All = %q; want o.1 o.2 o.3", got)
	}
}

// A restart reads the files back oldest first, including a directory
// written by paho's FileStore (same names and format).
func TestStoreOrderSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	s := newStore(dir, nil)
	s.Open()
	for i := 1; i <= 20; i++ {
		s.Put("o."+string(rune('a'+i)), publishPk(uint16(i)))
	}
	s.Close()
	r := newStore(dir, nil)
	r.Open()
	keys := r.All()
	if len(keys) != 20 {
		t.Fatalf("%d keys after restart; want 20", len(keys))
	}
	for i, k := range keys {
		if got := payloadOf(r.Get(k)); got != byte(i+1) {
			t.Errorf("key %d (%s) holds %d; want %d", i, k, got, i+1)
		}
	}
}

// With the store directory unusable from the start, the publisher still
// delivers, and says so on events.
func TestPublisherWithBrokenStore(t *testing.T) {
	col := newCollector()
	b := startBroker(t, "127.0.0.1:0", col.add)
	cfg := testConfig(t, "tcp://"+b.TCPAddr())
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	cfg.StoreDir = filepath.Join(file, "store") // under a file: cannot exist
	reported := make(chan error, 4)
	cfg.OnStoreFault = func(err error) { reported <- err }
	p := newPublisher(t, cfg)
	p.PublishMove(move(1))
	p.PublishState(state(1))
	waitUntil(t, "state delivered", hasSeq(col, t, "state", 1))
	waitUntil(t, "move delivered", hasSeq(col, t, "moves", 1))
	select {
	case err := <-reported:
		if err == nil {
			t.Error("OnStoreFault(nil); want the disk error")
		}
	case <-time.After(wait):
		t.Fatal("OnStoreFault not called")
	}
	waitUntil(t, "fault event", func() bool {
		for _, e := range col.get("events") {
			if strings.Contains(string(e.payload), `"event":"fault"`) && strings.Contains(string(e.payload), "mqtt store") {
				return true
			}
		}
		return false
	})
	if p.StoreFault() == nil {
		t.Error("StoreFault = nil")
	}
}

// A message kept in memory is handed out as a copy: paho's resume marks
// what it gets as a duplicate while its outgoing goroutine may be writing
// the packet it stored (eclipse-paho/paho.mqtt.golang#703).
func TestStoreHandsOutCopies(t *testing.T) {
	s := newStore("", nil) // no directory: memory only
	s.Open()
	pub := packets.NewControlPacket(packets.Publish).(*packets.PublishPacket)
	pub.TopicName, pub.Qos, pub.MessageID, pub.Payload = "zertz/b/moves", 1, 7, []byte(`{"turn":1}`)
	s.Put("o.7", pub)
	got, ok := s.Get("o.7").(*packets.PublishPacket)
	if !ok || got == pub || got.TopicName != pub.TopicName || got.MessageID != 7 || string(got.Payload) != `{"turn":1}` {
		t.Fatalf("Get = %v (same packet: %v); want an equal copy", got, got == pub)
	}
	got.Dup = true
	if again := s.Get("o.7").(*packets.PublishPacket); again.Dup || pub.Dup {
		t.Error("marking the copy a duplicate changed the store's message or paho's packet")
	}
}
