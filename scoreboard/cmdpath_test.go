package scoreboard

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/i18n"
)

// Issue 19: a board whose command path failed its health check says
// "online command-path-failed" in its retained status. The viewers' pages
// read the first word (the board is online and broadcasting); the console
// flags that commands are not reaching it, until the status says plain
// "online" again.
func TestStatusCommandPathFailed(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	defer s.Close()
	rec, rep := sampleGame(t, 10)
	states := gameStates(t, rec, rep, "t1")
	b, _ := json.Marshal(states[3])
	s.Handle("zertz/t1/state", b)
	s.Handle("zertz/t1/status", []byte("online command-path-failed"))
	if h, _ := s.Current(""); !strings.Contains(h, "card online") {
		t.Errorf("the index does not show the board online:\n%s", h)
	}
	html, _ := s.renderConsole(i18n.EN)
	if !strings.Contains(html, "commands not reaching the board") || !strings.Contains(html, `class="conn online"`) {
		t.Errorf("the console lacks the command-path alert on an online board:\n%s", html)
	}
	s.Handle("zertz/t1/status", []byte("online"))
	if html, _ = s.renderConsole(i18n.EN); strings.Contains(html, "commands not reaching the board") {
		t.Errorf("the alert stays after plain online:\n%s", html)
	}
	// A value the contract does not know changes nothing.
	s.Handle("zertz/t1/status", []byte("sideways command-path-failed"))
	if html, _ = s.renderConsole(i18n.EN); strings.Contains(html, "commands not reaching the board") || !strings.Contains(html, `class="conn online"`) {
		t.Errorf("an unknown status changed the console:\n%s", html)
	}
}
