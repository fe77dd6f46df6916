package simboard_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/hall"
	"github.com/zertzboard/zertzboard/internal/mosquittotest"
	"github.com/zertzboard/zertzboard/internal/nginxtest"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
)

// scoreboardProcess is "zertzboard scoreboard" run as its own process, on
// a port it keeps across restarts (the proxy in front names it).
type scoreboardProcess struct {
	t    *testing.T
	addr string
	args []string
	cmd  *exec.Cmd
	out  *logBuffer
	done chan struct{}
}

func startScoreboardProcess(t *testing.T, args ...string) *scoreboardProcess {
	t.Helper()
	p := &scoreboardProcess{t: t, addr: fmt.Sprintf("127.0.0.1:%d", mosquittotest.FreePort(t)), out: &logBuffer{}}
	p.args = append([]string{"scoreboard", "--http", p.addr}, args...)
	t.Cleanup(func() {
		p.stop()
		if t.Failed() {
			t.Logf("scoreboard %s:\n%s", p.addr, p.out.String())
		}
	})
	p.start()
	return p
}

func (p *scoreboardProcess) url() string { return "http://" + p.addr }

func (p *scoreboardProcess) start() {
	p.t.Helper()
	mark := len(p.out.String())
	p.cmd = exec.Command(os.Args[0], p.args...)
	p.cmd.Env = append(os.Environ(), "ZERTZBOARD_RUN_MAIN=1")
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	done := make(chan struct{})
	p.done = done
	go func(cmd *exec.Cmd) { cmd.Wait(); close(done) }(p.cmd)
	// Listening once it says so, in this start's lines.
	waitFor(p.t, "the scoreboard listening on "+p.addr, p.out.wrote.changes, func() bool {
		select {
		case <-done:
			p.t.Fatalf("the scoreboard exited:\n%s", p.out.String())
		default:
		}
		return strings.Contains(p.out.String()[mark:], "Press Ctrl-C to stop.")
	})
}

// stop ends the process with SIGTERM (as systemd does) and waits for it.
func (p *scoreboardProcess) stop() {
	if p.cmd == nil {
		return
	}
	p.cmd.Process.Signal(syscall.SIGTERM) // the process this test started
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
	}
	p.cmd = nil
}

// firstView opens an event stream and returns the whole view it starts
// with (the view's HTML, the same for every viewer of that view) and the
// response's X-Scoreboard header (the process nginx chose).
func firstView(t *testing.T, url string) (html, upstream string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hallWait)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	r := bufio.NewReader(resp.Body)
	event := ""
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case bytes.HasPrefix(line, []byte("event: ")):
			event = string(line[7:])
		case bytes.HasPrefix(line, []byte("data: ")) && event == "view":
			var v struct {
				HTML string `json:"html"`
			}
			if err := json.Unmarshal(line[6:], &v); err != nil {
				t.Fatalf("%s: %v", url, err)
			}
			// nginx lists every upstream it tried: the last one answered.
			up := resp.Header.Get("X-Scoreboard")
			return v.HTML, up[strings.LastIndex(up, " ")+1:]
		}
	}
}

// resultRows reads a scoreboard's results.csv: its rows, the header first.
func resultRows(t *testing.T, base string) [][]string {
	t.Helper()
	resp, err := http.Get(base + "/results.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	rows, err := csv.NewReader(resp.Body).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s/results.csv: %v", base, err)
	}
	return rows
}

// gameIDs are the results' game IDs, sorted.
func gameIDs(t *testing.T, base string) []string {
	t.Helper()
	rows := resultRows(t, base)
	col := slices.Index(rows[0], "game_id")
	var ids []string
	for _, r := range rows[1:] {
		ids = append(ids, r[col])
	}
	slices.Sort(ids)
	return ids
}

// TestScoreboardPair runs two "zertzboard scoreboard" processes on one
// broker, each with its own --results directory, behind nginx (the
// configuration of package hall, as in firmware-config/nginx). They must
// serve identical views (the tournament view and each board's, as whole
// views on a new event stream) and the same results; nginx must spread
// viewers over both, stream a live game to a viewer, and keep serving
// while one process is down. A game finished while one process is down
// appears in it after its restart (from the retained record), and a game
// it kept in its --results directory stays after the board is gone from
// the broker.
func TestScoreboardPair(t *testing.T) {
	if testing.Short() {
		t.Skip("plays two games with two scoreboard processes and nginx")
	}
	nginxtest.Bin(t)
	broker := mosquittotest.Start(t, mosquittotest.Options{})
	dirs := []string{t.TempDir(), t.TempDir()}
	sbs := make([]*scoreboardProcess, 2)
	for i := range sbs {
		sbs[i] = startScoreboardProcess(t, "--broker", "tcp://"+broker, "--results", dirs[i], "--proxy", "127.0.0.1", "--console=false")
	}
	site, err := hall.ProxyConfig(hall.Proxy{Listen: "127.0.0.1:0", Scoreboards: []string{sbs[0].addr, sbs[1].addr}})
	if err != nil {
		t.Fatal(err)
	}
	proxy := "http://" + nginxtest.Start(t, nginxtest.Options{HTTP: func(port int) string {
		return strings.Replace(site, "listen 127.0.0.1:0;", fmt.Sprintf("listen 127.0.0.1:%d;", port), 1)
	}})

	// nginx spreads viewers over both processes.
	upstreams := map[string]bool{}
	for i := 0; i < 4; i++ {
		_, up := firstView(t, proxy+"/events")
		upstreams[up] = true
	}
	if !upstreams[sbs[0].addr] || !upstreams[sbs[1].addr] {
		t.Errorf("four event streams through nginx went to %v; want both scoreboards", upstreams)
	}

	// Two games that end on the board (a win), so that each is a result.
	names := bridgeGames[:2]
	var games []*record.Record
	for _, n := range names {
		rec, err := record.ReadFile(samples.Path(n))
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, rec)
	}
	dir := t.TempDir()
	play := func(id string, k int) {
		t.Helper()
		if err := os.Mkdir(filepath.Join(dir, id), 0o700); err != nil {
			t.Fatal(err)
		}
		b := startSimProcess(t, id, "--game", samples.Path(names[k]), "--speed", "20", "--settle", "150", "--scan-hz", "100", "--exit-at-end",
			"--board-id", id, "--broker", "tcp://"+broker, "--http", "off", "--journal", filepath.Join(dir, id, "journal.jsonl"), "--seed", fmt.Sprint(k+1))
		<-b.done
		if b.code != exitOK {
			t.Fatalf("board %s exited %d", id, b.code)
		}
	}
	finished := func(base string, n int) func() bool {
		return func() bool { return len(resultRows(t, base)) == n+1 }
	}

	// A viewer follows p1's game live through nginx, from before it starts.
	seqs := make(chan uint64, 1000)
	ctx, cancel := context.WithTimeout(context.Background(), hallWait)
	defer cancel()
	go func() {
		defer close(seqs)
		req, _ := http.NewRequestWithContext(ctx, "GET", proxy+"/events?board=p1", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			var v struct {
				Seq uint64 `json:"seq"`
			}
			if data, ok := strings.CutPrefix(line, "data: "); ok && json.Unmarshal([]byte(data), &v) == nil {
				seqs <- v.Seq
			}
		}
	}()
	play("p1", 0)
	for _, sb := range sbs {
		waitForPage(t, sb.addr+" listing p1's game", sb.url(), finished(sb.url(), 1))
	}
	var final struct {
		Seq   uint64 `json:"seq"`
		Turn  int    `json:"turn"`
		Phase string `json:"phase"`
	}
	if err := json.Unmarshal([]byte(get(t, proxy+"/board/p1/state.json")), &final); err != nil || final.Phase != "over" || final.Turn != len(games[0].Turns) {
		t.Fatalf("p1's state through nginx: %+v (%v)", final, err)
	}
	seen := false
	for seq := range seqs { // until the final view, or the stream's deadline
		if seen = seq == final.Seq; seen {
			break
		}
	}
	cancel()
	if !seen {
		t.Errorf("the viewer through nginx did not get p1's final view (seq %d)", final.Seq)
	}
	sameViews(t, sbs, "", "p1")

	// One process stops; nginx serves every viewer from the other.
	sbs[1].stop()
	for i := 0; i < 4; i++ {
		if _, up := firstView(t, proxy+"/events?board=p1"); up != sbs[0].addr {
			t.Errorf("with %s down, nginx answered from %q", sbs[1].addr, up)
		}
	}
	// Meanwhile p2 plays a game, and p1 leaves the broker (its retained
	// state and record cleared, as when a board is taken away).
	play("p2", 1)
	waitForPage(t, sbs[0].addr+" listing p2's game", sbs[0].url(), finished(sbs[0].url(), 2))
	c := connectHall(t, broker, "", "", "pair-clear")
	for _, topic := range []string{"zertz/p1/state", "zertz/p1/record", "zertz/p1/status"} {
		if tok := c.Publish(topic, 1, true, []byte{}); !tok.WaitTimeout(30*time.Second) || tok.Error() != nil {
			t.Fatalf("clearing %s: %v", topic, tok.Error())
		}
	}
	waitForPage(t, "p1 gone from "+sbs[0].addr, sbs[0].url(), func() bool {
		html, _ := firstView(t, sbs[0].url()+"/events")
		return !strings.Contains(html, `data-board="p1"`)
	})

	// Restarted, it has p2's game from the broker and p1's from its
	// directory: the same results as the other.
	sbs[1].start()
	waitForPage(t, sbs[1].addr+" listing both games after its restart", sbs[1].url(), finished(sbs[1].url(), 2))
	a, b := gameIDs(t, sbs[0].url()), gameIDs(t, sbs[1].url())
	if !slices.Equal(a, b) || len(a) != 2 {
		t.Errorf("results: %s has %v, %s has %v", sbs[0].addr, a, sbs[1].addr, b)
	}
	ra, rb := resultRows(t, sbs[0].url()), resultRows(t, sbs[1].url())
	slices.SortFunc(ra[1:], func(x, y []string) int { return strings.Compare(strings.Join(x, ","), strings.Join(y, ",")) })
	slices.SortFunc(rb[1:], func(x, y []string) int { return strings.Compare(strings.Join(x, ","), strings.Join(y, ",")) })
	if !slices.EqualFunc(ra, rb, slices.Equal) {
		t.Errorf("results.csv differs:\n%s: %q\n%s: %q", sbs[0].addr, ra, sbs[1].addr, rb)
	}
	waitForPage(t, "p2 on the restarted "+sbs[1].addr, sbs[1].url(), func() bool {
		html, _ := firstView(t, sbs[1].url()+"/events")
		return strings.Contains(html, `data-board="p2"`)
	})
	sameViews(t, sbs, "", "p2")
}

// sameViews: each process serves the same whole view of each board ("" is
// the tournament view).
func sameViews(t *testing.T, sbs []*scoreboardProcess, boards ...string) {
	t.Helper()
	for _, board := range boards {
		q := ""
		if board != "" {
			q = "?board=" + board
		}
		a, _ := firstView(t, sbs[0].url()+"/events"+q)
		for _, sb := range sbs[1:] {
			if b, _ := firstView(t, sb.url()+"/events"+q); a != b {
				t.Errorf("the view of %q differs between %s and %s:\n%s\n%s", board, sbs[0].addr, sb.addr, a, b)
			}
		}
	}
}
