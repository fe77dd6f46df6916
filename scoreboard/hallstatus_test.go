package scoreboard

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/hall"
	"github.com/zertzboard/zertzboard/i18n"
)

// TestHallUnreachable: while a hall's bridge says "0" on the centre, that
// hall's boards show "hall unreachable" (their last state kept, their
// clocks stopped) on their pages and the tournament view; another hall's
// boards and boards of no hall are untouched; "1" shows each board's own
// status again, and a board first seen while its hall is down is
// unreachable from the start.
func TestHallUnreachable(t *testing.T) {
	rec, rep := sampleGame(t, 20)
	st := gameStates(t, rec, rep, "a1")[10]
	turn := fmt.Sprintf(`data-turn="%d"`, st.Turn)
	s := New(Options{Halls: map[string][]string{"hall-a": {"a1", "a2"}, "hall-b": {"b1"}}})
	defer s.Close()
	for _, f := range []string{hall.BridgeStatusTopic("hall-a"), hall.BridgeStatusTopic("hall-b")} {
		if !slices.Contains(s.Filters(), f) {
			t.Errorf("Filters %v lack %s", s.Filters(), f)
		}
	}
	running := regexp.MustCompile(`class="clock running"`)
	for _, id := range []string{"a1", "b1", "c1"} {
		s.Handle("zertz/"+id+"/status", []byte("online"))
		s.Handle("zertz/"+id+"/state", clocked(t, st, "fischer:5m+3s", [2]int64{300000, 254321}, st.ToMove, false))
	}
	s.Handle(hall.BridgeStatusTopic("hall-a"), []byte("1"))
	s.Handle(hall.BridgeStatusTopic("hall-b"), []byte("1"))
	conn := func(id string) string {
		h, _ := s.Current(id)
		m := regexp.MustCompile(`<span class="conn ([a-z]+)">([^<]*)</span>`).FindStringSubmatch(h)
		if m == nil {
			t.Fatalf("%s: no connection status in\n%s", id, h)
		}
		if m[1] == StatusUnreachable && running.MatchString(h) {
			t.Errorf("%s: a clock runs while its hall is unreachable", id)
		}
		return m[1] + ":" + m[2]
	}
	card := func(id string) string {
		idx, _ := s.Current("")
		m := regexp.MustCompile(`class="card ([a-z]+)"[^>]*data-board="` + id + `"`).FindStringSubmatch(idx)
		if m == nil {
			t.Fatalf("no card for %s in\n%s", id, idx)
		}
		return m[1]
	}
	check := func(when string, want map[string]string) {
		t.Helper()
		for id, w := range want {
			if got := conn(id); got != w {
				t.Errorf("%s: %s shows %s; want %s", when, id, got, w)
			}
			if got, w := card(id), strings.Split(w, ":")[0]; got != w {
				t.Errorf("%s: %s's card is %s; want %s", when, id, got, w)
			}
		}
	}
	check("all up", map[string]string{"a1": "online:online", "b1": "online:online", "c1": "online:online"})
	s.Handle(hall.BridgeStatusTopic("hall-a"), []byte("0"))
	check("hall-a down", map[string]string{"a1": "unreachable:hall unreachable", "b1": "online:online", "c1": "online:online"})
	if h, seq := s.Current("a1"); seq != st.Seq || !strings.Contains(h, turn) {
		t.Errorf("a1's last state is not kept while its hall is unreachable: seq %d", seq)
	}
	// The board's own status changes under the hall's: still unreachable.
	s.Handle("zertz/a1/status", []byte("offline"))
	s.Handle("zertz/a2/status", []byte("online"))
	s.Handle("zertz/a2/state", stateJSON(t, st))
	check("hall-a down, a1 offline", map[string]string{"a1": "unreachable:hall unreachable", "a2": "unreachable:hall unreachable"})
	s.Handle(hall.BridgeStatusTopic("hall-a"), []byte("1"))
	check("hall-a up", map[string]string{"a1": "offline:offline", "a2": "online:online", "b1": "online:online"})
	if html, _ := s.renderConsole(i18n.EN); strings.Contains(html, "hall unreachable") {
		t.Errorf("the console shows a hall unreachable while every bridge is up:\n%s", html)
	}
	_, v := s.obs.changes()
	s.Handle(hall.BridgeStatusTopic("hall-a"), []byte("0"))
	if _, v2 := s.obs.changes(); v2 == v {
		t.Error("the console's streams were not woken by the hall's bridge going down")
	}
	html, _ := s.renderConsole(i18n.EN)
	for _, id := range []string{"a1", "a2", "b1"} {
		row := html[strings.Index(html, `data-board="`+id+`"`):]
		row = row[:strings.Index(row, "</tr>")]
		if got := strings.Contains(row, "hall unreachable") && strings.Contains(row, "commands wait"); got != (id != "b1") {
			t.Errorf("the console's row of %s says the hall is unreachable: %v\n%s", id, got, row)
		}
	}
	if f, _ := s.currentFrameLang("a2", i18n.PL); !strings.Contains(f.HTML, "sala nieosiągalna") {
		t.Errorf("the Polish view of a2 does not say the hall is unreachable:\n%s", f.HTML)
	}
}
