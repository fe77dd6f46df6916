package scoreboard

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/wire"
)

// BenchmarkHandle is the cost of one state message: decode, render the
// board and tournament views, queue them for a viewer.
func BenchmarkHandle(b *testing.B) {
	rec, rep := sampleGame(b, 30)
	states := gameStates(b, rec, rep, "t1")
	payloads := make([][]byte, len(states))
	for i, s := range states {
		payloads[i] = stateJSON(b, s)
	}
	s := New(Options{ClientBuffer: 1 << 20})
	defer s.Close()
	c, _ := s.subscribe("t1")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Handle("zertz/t1/state", payloads[i%len(payloads)])
		<-c.Frames()
	}
}

// BenchmarkFanout measures, with N browsers' event streams open on
// loopback, the latency from publishing a state over MQTT (a paho client
// as the board, the embedded broker, the scoreboard's paho client) to
// its arrival at every stream. One iteration is one state delivered to
// every viewer; the next is published once all have it. Reported:
// p50-ms, p99-ms and max-ms over every (state, viewer) pair.
//
//	go test -run '^$' -bench Fanout -benchtime 50x ./scoreboard/
func BenchmarkFanout(b *testing.B) {
	for _, n := range []int{1, 10, 20, 50, 100, 200, 500, 1000} {
		b.Run(fmt.Sprintf("viewers=%d", n), func(b *testing.B) { fanout(b, n) })
	}
}

func fanout(b *testing.B, viewers int) {
	rec, rep := sampleGame(b, 30)
	states := gameStates(b, rec, rep, "t1")
	mb := startBroker(b)
	s := New(Options{})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	defer s.Close()
	follow(b, s, mb) // before anything is retained (see TestBrowser)
	pub := newBoard(b, mb, "t1")
	defer mb.Close() // before the clients leave (see closeBrokerFirst)

	tr := &http.Transport{MaxIdleConnsPerHost: viewers, DisableCompression: true}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	ctx, cancel := context.WithCancel(context.Background())
	arrivals := make(chan arrival, viewers)
	var read atomic.Int64 // bytes the viewers read
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	for i := 0; i < viewers; i++ {
		c, err := openSSE(ctx, hc, srv.URL+"/events?board=t1", time.Hour)
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.close()
			readSeqs(ctx, c, arrivals, &read)
		}()
	}
	// Every viewer has its first view (the waiting one) before timing.
	for i := 0; i < viewers; i++ {
		<-arrivals
	}
	var lat []time.Duration
	read.Store(0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st := states[i%len(states)]
		st.Seq = uint64(i + 1)
		payload := stateJSON(b, st)
		sent := time.Now()
		tok := pub.c.Publish(pub.prefix+"state", 1, true, payload)
		timeout := time.After(wait)
		for got := 0; got < viewers; {
			select {
			case a := <-arrivals:
				if a.seq == st.Seq {
					lat = append(lat, a.at.Sub(sent))
					got++
				}
			case <-timeout:
				b.Fatalf("state %d reached %d of %d viewers in %v (dropped %d)", st.Seq, got, viewers, wait, s.Dropped())
			}
		}
		if !tok.WaitTimeout(wait) || tok.Error() != nil {
			b.Fatalf("publish: %v", tok.Error())
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
	b.ReportMetric(ms(lat[len(lat)-1]), "max-ms")
	b.ReportMetric(float64(read.Load())/float64(b.N*viewers), "B/view")
	if d := s.Dropped(); d > 0 {
		b.Errorf("%d viewers dropped", d)
	}
}

type arrival struct {
	seq uint64
	at  time.Time
}

// readSeqs reports the seq of every view on the stream, reading only the
// start of its data (a browser would parse the whole view).
func readSeqs(ctx context.Context, c *sseClient, out chan<- arrival, read *atomic.Int64) {
	key := []byte(`"seq":`)
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull {
			return
		}
		full := err == bufio.ErrBufferFull
		read.Add(int64(len(line)))
		if rest, ok := bytes.CutPrefix(line, []byte("data: {")); ok {
			if i := bytes.Index(rest[:min(len(rest), 64)], key); i >= 0 {
				rest = rest[i+len(key):]
				if end := bytes.IndexByte(rest, ','); end > 0 {
					seq, _ := strconv.ParseUint(string(rest[:end]), 10, 64)
					select {
					case out <- arrival{seq, time.Now()}:
					case <-ctx.Done():
						return
					}
				}
			}
		}
		for full { // the rest of a long line
			line, err = c.r.ReadSlice('\n')
			read.Add(int64(len(line)))
			if err != nil && err != bufio.ErrBufferFull {
				return
			}
			full = err == bufio.ErrBufferFull
		}
	}
}

// BenchmarkHall measures one scoreboard process serving a hall: 12 boards
// publishing over MQTT (the embedded broker, in process), 500 browsers'
// event streams on loopback: 100 on the tournament view and 400 spread
// over the boards' pages. One iteration is one state of one board (the
// boards take turns) delivered to every viewer of that board and of the
// tournament view. Reported: latency p50 and p99 from publishing to each
// viewer, the process's CPU time per state (scoreboard, broker, boards and
// the 500 readers together), the heap in use with the viewers connected,
// and the bytes each viewer reads per state. "whole" sends whole views,
// as before patches.
//
//	go test -run '^$' -bench Hall -benchtime 200x ./scoreboard/
func BenchmarkHall(b *testing.B) {
	for _, mode := range []string{"patches", "whole"} {
		for _, n := range []int{100, 500, 1000} {
			b.Run(fmt.Sprintf("%s/viewers=%d", mode, n), func(b *testing.B) { hallBench(b, n, mode == "whole") })
		}
	}
}

func hallBench(b *testing.B, viewers int, whole bool) {
	const boards = 12
	rec, rep := sampleGame(b, 30)
	mb := startBroker(b)
	s := New(Options{})
	s.hub.SetWhole(whole)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	defer s.Close()
	follow(b, s, mb)
	ids := make([]string, boards)
	pubs := make([]*board, boards)
	states := make([][]wire.State, boards)
	for i := range ids {
		ids[i] = fmt.Sprintf("hall-%02d", i+1)
		pubs[i] = newBoard(b, mb, ids[i])
		states[i] = gameStates(b, rec, rep, ids[i])
		pubs[i].state(states[i][0])
	}
	defer mb.Close()
	waitFor(b, s, "every board on the scoreboard", func() bool {
		for _, id := range ids {
			if s.State(id) == nil {
				return false
			}
		}
		return true
	})

	tr := &http.Transport{MaxIdleConnsPerHost: viewers, DisableCompression: true}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	var read atomic.Int64
	// arrivals, per view: the tournament view ("") and each board.
	arrivals := map[string]chan arrival{"": make(chan arrival, viewers)}
	watchers := map[string]int{}
	for _, id := range ids {
		arrivals[id] = make(chan arrival, viewers)
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < viewers; i++ {
		view, url := "", srv.URL+"/events"
		if i >= viewers/5 { // a fifth watch the tournament view
			view = ids[i%boards]
			url += "?board=" + view
		}
		watchers[view]++
		c, err := openSSE(ctx, hc, url, time.Hour)
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.close()
			readSeqs(ctx, c, arrivals[view], &read)
		}()
	}
	for view, n := range watchers {
		for j := 0; j < n; j++ {
			<-arrivals[view]
		}
	}
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)

	var lat []time.Duration
	read.Store(0)
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % boards
		turn := 1 + (i/boards)%(len(states[k])-1)
		st := states[k][turn]
		st.Seq = uint64(i + 10)
		index := uint64(boards) // the tournament view's seq is its number of boards
		sent := time.Now()
		tok := pubs[k].c.Publish(pubs[k].prefix+"state", 1, true, stateJSON(b, st))
		timeout := time.After(wait)
		for _, w := range []struct {
			view string
			seq  uint64
		}{{ids[k], st.Seq}, {"", index}} {
			for got := 0; got < watchers[w.view]; {
				select {
				case a := <-arrivals[w.view]:
					if a.seq == w.seq {
						lat = append(lat, a.at.Sub(sent))
						got++
					}
				case <-timeout:
					b.Fatalf("state %d of %s reached %d of %d viewers of %q in %v (dropped %d)", st.Seq, ids[k], got, watchers[w.view], w.view, wait, s.Dropped())
				}
			}
		}
		if !tok.WaitTimeout(wait) || tok.Error() != nil {
			b.Fatalf("publish: %v", tok.Error())
		}
	}
	b.StopTimer()
	cpu := cpuTime() - cpu0
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
	b.ReportMetric(ms(cpu)/float64(b.N), "cpu-ms/state")
	b.ReportMetric(float64(after.HeapInuse)/(1<<20), "heap-MiB")
	b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/float64(viewers)/1024, "heap-KiB/viewer")
	b.ReportMetric(float64(read.Load())/float64(b.N*(watchers[""]+viewers/boards)), "B/view")
	if d := s.Dropped(); d > 0 {
		b.Errorf("%d viewers dropped", d)
	}
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkObserve is what the console and the results add to each state
// a scoreboard handles: decoding the fields they read and keeping them.
func BenchmarkObserve(b *testing.B) {
	rec, rep := sampleGame(b, 30)
	states := gameStates(b, rec, rep, "t1")
	payloads := make([][]byte, len(states))
	for i, st := range states {
		payloads[i] = stateJSON(b, st)
	}
	o := newObserver(nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o.observe("t1", "state", payloads[i%len(payloads)])
	}
}

// BenchmarkConsoleNotes is what a game's notes cost the console: reading
// a record that carries 100 of them (the most a game takes) as the board
// republishes it, and rendering the console's list with its card.
func BenchmarkConsoleNotes(b *testing.B) {
	rec, rep := sampleGame(b, 30)
	sofar := recordUpTo(rec, rep, 30)
	sofar.GameID = "t1-1"
	for i := 0; i < 100; i++ {
		sofar.Notes = append(sofar.Notes, record.Note{Turn: i * 30 / 100, Text: strings.Repeat("clock replaced ", 13)})
	}
	payload := recordJSON(b, sofar)
	s := New(Options{Logger: testLogger(b)})
	defer s.Close()
	s.Handle("zertz/t1/state", stateJSON(b, gameStates(b, rec, rep, "t1")[30]))
	b.Run("record", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(payload)))
		for i := 0; i < b.N; i++ {
			s.obs.observe("t1", "record", payload)
		}
	})
	b.Run("render", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if html, _ := s.renderConsole(i18n.EN); !strings.Contains(html, "and 95 earlier") {
				b.Fatal("the console does not show the notes")
			}
		}
	})
}
