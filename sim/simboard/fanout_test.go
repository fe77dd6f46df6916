package simboard_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/hall"
	"github.com/zertzboard/zertzboard/internal/mosquittotest"
	"github.com/zertzboard/zertzboard/internal/nginxtest"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/wire"
)

// fanoutStates are the states of a replayed game after 0, 1, … turns.
func fanoutStates(t testing.TB, boardID string) []wire.State {
	t.Helper()
	rec, err := record.ReadFile(samples.Path(bridgeGames[0]))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	b, rules, err := rec.Board()
	if err != nil {
		t.Fatal(err)
	}
	var out []wire.State
	for n := 0; n <= rep.Game.Len(); n++ {
		g := rep.Game.Clone()
		if err := g.Undo(rep.Game.Len() - n); err != nil {
			t.Fatal(err)
		}
		ref, err := referee.New(referee.Config{Board: b, Rules: rules, Game: g})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, wire.Snapshot(ref, boardID, rec.Players, uint64(n+1), int64(n)*1000))
	}
	return out
}

// fanoutArrivals records when each viewer got each seq, written by the
// viewers' readers without a channel or lock between them: the load client
// must cost little, or it takes the CPU it measures.
type fanoutArrivals struct {
	viewers int
	at      [][]time.Time // [viewer][seq]
	count   []atomic.Int32
	all     []chan struct{} // closed when every viewer has the seq
}

func newFanoutArrivals(viewers, seqs int) *fanoutArrivals {
	a := &fanoutArrivals{viewers: viewers, at: make([][]time.Time, viewers), count: make([]atomic.Int32, seqs), all: make([]chan struct{}, seqs)}
	for v := range a.at {
		a.at[v] = make([]time.Time, seqs)
	}
	for i := range a.all {
		a.all[i] = make(chan struct{})
	}
	return a
}

// arrived is called by viewer's reader only.
func (a *fanoutArrivals) arrived(viewer int, seq uint64, now time.Time) {
	if seq >= uint64(len(a.all)) || !a.at[viewer][seq].IsZero() {
		return
	}
	a.at[viewer][seq] = now
	if int(a.count[seq].Add(1)) == a.viewers {
		close(a.all[seq])
	}
}

// openStream opens an event stream on a plain TCP connection (an HTTP/1.1
// GET, its reply's status and headers read by hand; a fraction of what
// net/http's client costs per stream). It returns the reader holding
// what came after the headers (the chunked body begins there) and the
// X-Scoreboard header.
func openStream(ctx context.Context, addr, path string) (net.Conn, *bufio.Reader, string, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, nil, "", err
	}
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", path, addr)
	br := bufio.NewReaderSize(c, 16<<10)
	tp := textproto.NewReader(br)
	status, err := tp.ReadLine()
	if err == nil && !strings.HasPrefix(status, "HTTP/1.1 200 ") {
		err = fmt.Errorf("GET %s: %s", path, status)
	}
	var h textproto.MIMEHeader
	if err == nil {
		h, err = tp.ReadMIMEHeader()
	}
	if err == nil && h.Get("Transfer-Encoding") != "chunked" {
		err = fmt.Errorf("GET %s: not chunked (%v)", path, h)
	}
	if err != nil {
		c.Close()
		return nil, nil, "", err
	}
	return c, br, h.Get("X-Scoreboard"), nil
}

// fanoutResult is what a fan-out run measured.
type fanoutResult struct {
	viewers, states int
	perUpstream     map[string]int
	p50, p99, max   time.Duration
	cpu             string // CPU time per state, by process (cpuPer)
	bytes           int    // read per viewer per state, chunk framing included (Linux)
}

// fanoutThroughProxy runs Debian's mosquitto, two "zertzboard scoreboard"
// processes following it and nginx in front of them (hall.ProxyConfig),
// opens viewers event streams of one board's page through nginx, and
// publishes states of a real game on the board's topic, one after the
// other: each once every viewer has the one before. It returns the
// latency from each publication to its arrival at each viewer.
//
// direct connects the viewers to the two scoreboards in turn, without
// nginx, to tell nginx's share.
func fanoutThroughProxy(t *testing.T, viewers, states int, direct bool) fanoutResult {
	t.Helper()
	nginxtest.Bin(t)
	broker := mosquittotest.Start(t, mosquittotest.Options{})
	sbs := []*scoreboardProcess{
		startScoreboardProcess(t, "--broker", "tcp://"+broker, "--proxy", "127.0.0.1", "--console=false"),
		startScoreboardProcess(t, "--broker", "tcp://"+broker, "--proxy", "127.0.0.1", "--console=false"),
	}
	site, err := hall.ProxyConfig(hall.Proxy{Listen: "127.0.0.1:0", Scoreboards: []string{sbs[0].addr, sbs[1].addr}})
	if err != nil {
		t.Fatal(err)
	}
	workers, _ := strconv.Atoi(os.Getenv("ZERTZBOARD_FANOUT_NGINX_WORKERS"))
	proxy := "http://" + nginxtest.Start(t, nginxtest.Options{Connections: 2*viewers + 256, Workers: workers, HTTP: func(port int) string {
		return strings.Replace(site, "listen 127.0.0.1:0;", fmt.Sprintf("listen 127.0.0.1:%d;", port), 1)
	}})

	game := fanoutStates(t, "fan")
	pub := connectHall(t, broker, "", "", "fanout-board")
	publish := func(st wire.State) {
		t.Helper()
		payload, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		if tok := pub.Publish("zertz/fan/state", 1, true, payload); !tok.WaitTimeout(hallWait) || tok.Error() != nil {
			t.Fatalf("publishing a state: %v", tok.Error())
		}
	}
	first := game[0]
	first.Seq = 1
	publish(first)
	for _, sb := range sbs {
		waitForPage(t, sb.addr+" showing the board", sb.url(), func() bool {
			resp, err := http.Get(sb.url() + "/board/fan/state.json")
			if err != nil {
				return false
			}
			resp.Body.Close()
			return resp.StatusCode == http.StatusOK
		})
	}

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var conns []net.Conn
	var load *sseLoad
	defer func() {
		cancel()
		wg.Wait() // the readers first: they read the connections' descriptors
		for _, c := range conns {
			c.Close()
		}
		if load != nil {
			load.close()
		}
	}()
	arr := newFanoutArrivals(viewers, states+2)
	ended := make(chan int, viewers)
	load, err = newSSELoad(arr, ended)
	if err != nil {
		t.Fatal(err)
	}
	res := fanoutResult{viewers: viewers, states: states, perUpstream: map[string]int{}}
	proxyAddr := strings.TrimPrefix(proxy, "http://")
	for i := 0; i < viewers; i++ {
		addr := proxyAddr
		if direct {
			addr = sbs[i%2].addr
		}
		c, br, up, err := openStream(ctx, addr, "/events?board=fan")
		if err != nil {
			t.Fatalf("viewer %d: %v", i, err)
		}
		conns = append(conns, c)
		if err := load.add(i, c, br); err != nil {
			t.Fatalf("viewer %d: %v", i, err)
		}
		if direct {
			up = sbs[i%2].addr
		}
		res.perUpstream[up[strings.LastIndex(up, " ")+1:]]++
	}
	wg.Add(1)
	go func() { defer wg.Done(); load.run(ctx) }()
	// Every viewer has the board's view before the timing starts.
	await := func(seq uint64) {
		t.Helper()
		select {
		case <-arr.all[seq]:
		case v := <-ended:
			if ctx.Err() == nil {
				t.Fatalf("viewer %d's stream ended (a scoreboard dropped it, or nginx closed it)", v)
			}
		case <-time.After(hallWait):
			t.Fatalf("state %d reached %d of %d viewers", seq, arr.count[seq].Load(), viewers)
		}
	}
	await(1)

	var lat []time.Duration
	cpu0, read0 := cpuTimes(), load.read.Load()
	for i := 0; i < states; i++ {
		st := game[1+i%(len(game)-1)]
		st.Seq = uint64(i + 2)
		sent := time.Now()
		publish(st)
		await(st.Seq)
		for v := range viewers {
			lat = append(lat, arr.at[v][st.Seq].Sub(sent))
		}
	}
	res.cpu = cpuPer(cpu0, cpuTimes(), states)
	res.bytes = int(load.read.Load()-read0) / (states * viewers)
	slices.Sort(lat)
	res.p50, res.p99, res.max = lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1]
	if len(lat) != viewers*states {
		t.Errorf("%d arrivals measured; want %d", len(lat), viewers*states)
	}
	return res
}

// TestFanoutProxy serves viewers through nginx from two scoreboard
// processes (fanoutThroughProxy): every viewer must get every state, and
// both processes must carry viewers. The figures are logged, never
// asserted: they depend on the machine and its load. By default 300
// viewers and 20 states, to keep the suite quick;
// ZERTZBOARD_FANOUT_VIEWERS=2000 (and ZERTZBOARD_FANOUT_STATES) sets the
// size for a measurement, best without -race (docs/HALL.md);
// ZERTZBOARD_FANOUT_DIRECT=1 connects the viewers to the scoreboards
// without nginx, for comparison; ZERTZBOARD_FANOUT_NGINX_WORKERS=2 runs
// nginx with a master and two workers instead of one process:
//
//	ZERTZBOARD_FANOUT_VIEWERS=2000 go test -run TestFanoutProxy -v ./cmd/zertzboard
func TestFanoutProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of viewers through nginx")
	}
	viewers, states := 300, 20
	if v, err := strconv.Atoi(os.Getenv("ZERTZBOARD_FANOUT_VIEWERS")); err == nil && v > 0 {
		viewers = v
	}
	if v, err := strconv.Atoi(os.Getenv("ZERTZBOARD_FANOUT_STATES")); err == nil && v > 0 {
		states = v
	}
	direct := os.Getenv("ZERTZBOARD_FANOUT_DIRECT") == "1"
	r := fanoutThroughProxy(t, viewers, states, direct)
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
	via := "through nginx"
	if direct {
		via = "directly"
	}
	t.Logf("%d viewers %s (%v), %d states: publish to viewer p50 %s, p99 %s, max %s; %d bytes per viewer per state; CPU per state: %s", r.viewers, via, r.perUpstream, r.states, ms(r.p50), ms(r.p99), ms(r.max), r.bytes, r.cpu)
	if len(r.perUpstream) != 2 {
		t.Errorf("viewers per scoreboard %v; want both scoreboards serving", r.perUpstream)
	}
}
