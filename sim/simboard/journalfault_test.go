package simboard_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Finding: a journal path that is a directory, or in a directory that
// cannot be written, left the board running without a journal, exiting 0.
// It now refuses to start, exit 1 naming the path.
func TestSimRefusesAnUnusableJournal(t *testing.T) {
	dir := t.TempDir()
	damaged := filepath.Join(dir, "d.jsonl")
	os.WriteFile(damaged, []byte("{\"op\":\"game\",\"seq\":1,\"t\":0,\"variant\":\"37\",\"mode\":\"casual\"}\nnot json\n"), 0o644)
	os.Mkdir(damaged+".damaged", 0o755) // the damage cannot be moved aside
	for _, path := range []string{dir, "/proc/self/zertzboard-journal", damaged} {
		// The MQTT client's goroutines may still log as the command
		// returns: the buffers take concurrent writes, as stderr does.
		var out, errb logBuffer
		code := runSimContext(context.Background(), []string{"--journal", path, "--mqtt-listen", "127.0.0.1:0", "--ws-listen", "off", "--http", "off"}, &out, &errb)
		if code != exitFault || !strings.Contains(errb.String(), path) || !strings.Contains(errb.String(), "--journal off") {
			t.Errorf("sim --journal %s: exit %d, stderr %q; want 1 naming the path and --journal off", path, code, errb.String())
		}
	}
}
