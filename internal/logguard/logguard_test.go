package logguard

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newLogger(buf *bytes.Buffer, c *clock) *slog.Logger {
	return slog.New(New(slog.NewTextHandler(buf, nil), &Options{Now: c.now}))
}

type packet struct {
	Type    byte
	Topic   string
	Payload []byte
}

func lines(buf *bytes.Buffer) []string {
	return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
}

func TestLinesStayShort(t *testing.T) {
	var buf bytes.Buffer
	log := newLogger(&buf, &clock{time.Unix(0, 0)})
	huge := strings.Repeat("x", 1<<20)
	big := packet{Type: 3, Topic: "zertz/b1/cmd/new-game", Payload: make([]byte, 10<<20)}
	args := []any{"client", huge, "payload", make([]byte, 1<<20), "pk", big, "ptr", &big, "err", errors.New(huge), "group", slog.Group("g", "a", huge)}
	for i := 0; i < 40; i++ {
		args = append(args, "k"+strings.Repeat("k", i), huge)
	}
	log.Info(huge, args...)
	log.With("client", huge).WithGroup(huge).Info("with", "x", huge)
	for _, l := range lines(&buf) {
		if len(l) > 4096 {
			t.Errorf("line of %d bytes: %.200s…", len(l), l)
		}
	}
	out := buf.String()
	for _, want := range []string{"(1048576 bytes)", "payload=\"[1048576 bytes]\"", "not logged", "attrs_dropped="} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%.2000s", want, out)
		}
	}
	if strings.Contains(out, "0 0 0 0") {
		t.Error("a payload was printed in decimal")
	}
}

func TestSmallValuesKept(t *testing.T) {
	var buf bytes.Buffer
	log := newLogger(&buf, &clock{time.Unix(0, 0)})
	log.Info("move", "turn", 3, "undone", []string{"D4", "E5"}, "pk", packet{Type: 3, Topic: "t", Payload: []byte("ab")})
	want := `msg=move turn=3 undone="[D4 E5]" pk="{3 t [97 98]}"`
	if got := buf.String(); !strings.Contains(got, want) {
		t.Errorf("log = %q; want it to contain %q", got, want)
	}
}

func TestWarningsRateLimitedPerSource(t *testing.T) {
	var buf bytes.Buffer
	c := &clock{time.Unix(0, 0)}
	log := newLogger(&buf, c)
	for i := 0; i < 100; i++ {
		log.Warn("denied", "client", "mallory")
		log.Warn("denied", "client", "alice") // another source is not starved
	}
	log.Info("info is never limited", "client", "mallory")
	count := func(s string) int { return strings.Count(buf.String(), s) }
	if n := count("client=mallory"); n != 5+1 {
		t.Errorf("mallory: %d lines; want 5 warnings (the burst) and the info line\n%s", n, buf.String())
	}
	if n := count("client=alice"); n != 5 {
		t.Errorf("alice: %d lines; want 5", n)
	}
	buf.Reset()
	c.t = c.t.Add(10 * time.Second)
	log.Warn("denied", "client", "mallory")
	if got := buf.String(); !strings.Contains(got, "suppressed=95") {
		t.Errorf("after 10s: %q; want one line counting the 95 suppressed", got)
	}
	buf.Reset()
	log.Warn("denied", "client", "mallory")
	if buf.Len() != 0 {
		t.Errorf("second line within the interval was logged: %q", buf.String())
	}
}

func TestGlobalLimitAcrossSources(t *testing.T) {
	var buf bytes.Buffer
	log := newLogger(&buf, &clock{time.Unix(0, 0)})
	for i := 0; i < 10000; i++ {
		log.Warn("refused", "client", strings.Repeat("c", i%2000)+string(rune('a'+i%26)))
	}
	if n := len(lines(&buf)); n > 50 {
		t.Errorf("%d lines from 10000 sources at one instant; want at most the global burst of 50", n)
	}
}
