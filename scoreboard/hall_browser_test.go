package scoreboard

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/wire"
)

// TestBrowserHall: the tournament view of a hall of 12 boards, open in
// headless Chromium while every board plays a game (their states
// interleaved, as in a hall), follows the games through patches and ends
// as the whole view: each card with its board's final position, players
// and clocks.
func TestBrowserHall(t *testing.T) {
	br := startBrowser(t, 1600, 1000)
	const boards = 12
	rec, rep := sampleGame(t, 20)
	mb := startBroker(t)
	s := New(Options{Logger: testLogger(t)})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	follow(t, s, mb)
	ids := make([]string, boards)
	pubs := make([]*board, boards)
	states := make([][]wire.State, boards)
	for i := range ids {
		ids[i] = fmt.Sprintf("hall-%02d", i+1)
		pubs[i] = newBoard(t, mb, ids[i])
		states[i] = gameStates(t, rec, rep, ids[i])
	}
	closeBrokerFirst(t, mb)
	br.navigate(srv.URL + "/")
	br.waitFor("the empty tournament view", `document.body.dataset.live && document.querySelector('#view .tournament[data-boards="0"]')`)
	for i := range ids {
		pubs[i].status("online")
	}
	br.waitFor("twelve cards", fmt.Sprintf(`document.querySelectorAll("#view .card").length === %d`, boards))
	// The boards take turns, each a turn behind the one before. Each round
	// waits until the scoreboard has it: the embedded broker rightly drops
	// QoS 1 messages for a client more than 64 behind.
	n := len(states[0])
	seqOf := func(id string) uint64 {
		var st wire.State
		if b := s.State(id); b != nil && json.Unmarshal(b, &st) == nil {
			return st.Seq
		}
		return 0
	}
	for step := 0; step < n+boards; step++ {
		for i := range ids {
			if k := step - i; k >= 0 && k < n {
				st := states[i][k]
				run := st.ToMove
				st.Clock = wire.Clock{Control: "sudden:10m", Remaining: &[2]int64{600000 - int64(k)*1000, 600000 - int64(k)*900}, Running: &run}
				if st.Phase == "over" {
					st.Clock.Running = nil
				}
				pubs[i].publish("state", 1, true, mustJSON(t, st))
			}
		}
		waitFor(t, s, "the round", func() bool {
			for i, id := range ids {
				if k := min(step-i, n-1); k >= 0 && seqOf(id) != states[i][k].Seq {
					return false
				}
			}
			return true
		})
	}
	sameAsWhole(t, br, s, "")
	var patched int
	br.eval(`window.zbPatched || 0`, &patched)
	if patched < n {
		t.Errorf("the tournament view applied %d patches for %d states", patched, boards*n)
	}
	html, _ := s.Current("")
	if !strings.Contains(html, fmt.Sprintf(`data-boards="%d"`, boards)) || strings.Count(html, `class="clock`) != 2*boards {
		t.Errorf("the tournament view lacks boards or clocks:\n%s", html)
	}
	br.screenshot("scoreboard-hall.png")
}
