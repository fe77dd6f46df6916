package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/hall"
	"github.com/zertzboard/zertzboard/internal/mosquittotest"
	"github.com/zertzboard/zertzboard/internal/nginxtest"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/live"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
)

// fanoutStates are the states of a replayed game after 0, 1, … turns.
func fanoutStates(t testing.TB, boardID string) []live.State {
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
	var out []live.State
	for n := 0; n <= rep.Game.Len(); n++ {
		g := rep.Game.Clone()
		if err := g.Undo(rep.Game.Len() - n); err != nil {
			t.Fatal(err)
		}
		ref, err := referee.New(referee.Config{Board: b, Rules: rules, Game: g})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, live.Snapshot(ref, boardID, rec.Players, uint64(n+1), int64(n)*1000))
	}
	return out
}

type seqArrival struct {
	viewer int
	seq    uint64
	at     time.Time
}

// readViewSeqs reports the seq of every view or patch on an event stream
// (reading only the start of each data line), and closes gone when the
// stream ends.
func readViewSeqs(r *bufio.Reader, viewer int, out chan<- seqArrival) {
	key := []byte(`"seq":`)
	for {
		line, err := r.ReadSlice('\n')
		if err != nil && err != bufio.ErrBufferFull {
			return
		}
		full := err == bufio.ErrBufferFull
		if rest, ok := bytes.CutPrefix(line, []byte("data: {")); ok {
			if i := bytes.Index(rest[:min(len(rest), 64)], key); i >= 0 {
				rest = rest[i+len(key):]
				if end := bytes.IndexByte(rest, ','); end > 0 {
					seq, _ := strconv.ParseUint(string(rest[:end]), 10, 64)
					out <- seqArrival{viewer, seq, time.Now()}
				}
			}
		}
		for full {
			_, err = r.ReadSlice('\n')
			if err != nil && err != bufio.ErrBufferFull {
				return
			}
			full = err == bufio.ErrBufferFull
		}
	}
}

// fanoutResult is what a fan-out run measured.
type fanoutResult struct {
	viewers, states int
	perUpstream     map[string]int
	p50, p99, max   time.Duration
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
	publish := func(st live.State) {
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
		waitFor(t, sb.addr+" showing the board", func() bool {
			resp, err := http.Get(sb.url() + "/board/fan/state.json")
			if err != nil {
				return false
			}
			resp.Body.Close()
			return resp.StatusCode == http.StatusOK
		})
	}

	tr := &http.Transport{MaxIdleConnsPerHost: viewers, DisableCompression: true}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	arrivals := make(chan seqArrival, 4*viewers)
	ended := make(chan int, viewers)
	res := fanoutResult{viewers: viewers, states: states, perUpstream: map[string]int{}}
	for i := 0; i < viewers; i++ {
		base := proxy
		if direct {
			base = sbs[i%2].url()
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/events?board=fan", nil)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatalf("viewer %d: %v", i, err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("viewer %d: %s", i, resp.Status)
		}
		up := resp.Header.Get("X-Scoreboard")
		if direct {
			up = sbs[i%2].addr
		}
		res.perUpstream[up[strings.LastIndex(up, " ")+1:]]++
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer resp.Body.Close()
			readViewSeqs(bufio.NewReaderSize(resp.Body, 64<<10), i, arrivals)
			select {
			case ended <- i:
			default:
			}
		}()
	}
	// Every viewer has the board's view before the timing starts.
	await := func(seq uint64, sent time.Time, lat *[]time.Duration) {
		t.Helper()
		got := make([]bool, viewers)
		n := 0
		timeout := time.After(hallWait)
		for n < viewers {
			select {
			case a := <-arrivals:
				if a.seq == seq && !got[a.viewer] {
					got[a.viewer] = true
					n++
					if lat != nil {
						*lat = append(*lat, a.at.Sub(sent))
					}
				}
			case v := <-ended:
				if ctx.Err() == nil {
					t.Fatalf("viewer %d's stream ended (a scoreboard dropped it, or nginx closed it)", v)
				}
			case <-timeout:
				t.Fatalf("state %d reached %d of %d viewers", seq, n, viewers)
			}
		}
	}
	await(1, time.Now(), nil)

	var lat []time.Duration
	for i := 0; i < states; i++ {
		st := game[1+i%(len(game)-1)]
		st.Seq = uint64(i + 2)
		sent := time.Now()
		publish(st)
		await(st.Seq, sent, &lat)
	}
	cancel()
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
	t.Logf("%d viewers %s (%v), %d states: publish to viewer p50 %s, p99 %s, max %s", r.viewers, via, r.perUpstream, r.states, ms(r.p50), ms(r.p99), ms(r.max))
	if len(r.perUpstream) != 2 {
		t.Errorf("viewers per scoreboard %v; want both scoreboards serving", r.perUpstream)
	}
}
