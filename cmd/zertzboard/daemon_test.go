package main

import (
	"bytes"
	"net"
	"strings"
	"testing"
)

// TestPortInUse: each listening address that is taken gives one line naming
// the address and the flag that changes it.
func TestPortInUse(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	addr := held.Addr().String()
	tests := []struct {
		name, flag string
		args       []string
	}{
		{"mqtt", "--mqtt-listen", []string{"--mqtt-listen", addr, "--ws-listen", "off", "--http", "off"}},
		{"websocket", "--ws-listen", []string{"--mqtt-listen", "127.0.0.1:0", "--ws-listen", addr, "--http", "off"}},
		{"http", "--http", []string{"--mqtt-listen", "127.0.0.1:0", "--ws-listen", "off", "--http", "localhost:" + addr[strings.LastIndexByte(addr, ':')+1:]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append([]string{"sim", "--journal", t.TempDir() + "/j.jsonl"}, tt.args...), &out, &errOut)
			if code == exitOK {
				t.Fatalf("sim on a taken port exited 0")
			}
			lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
			last := lines[len(lines)-1]
			if !strings.HasPrefix(last, "zertzboard sim: ") || !strings.Contains(last, addr) ||
				!strings.Contains(last, "already in use") || !strings.Contains(last, "choose another with "+tt.flag+" ") {
				t.Errorf("last line = %q; want one line naming %s and %s", last, addr, tt.flag)
			}
		})
	}
}

// Boards whose journals share a directory get a store each.
func TestStoreBesideTheJournal(t *testing.T) {
	for _, c := range [][2]string{
		{"/var/lib/zertzboard/journal.jsonl", "/var/lib/zertzboard/mqtt-store"},
		{"/srv/hall/hall-01.jsonl", "/srv/hall/hall-01.mqtt-store"},
		{"/srv/hall/hall-02.jsonl", "/srv/hall/hall-02.mqtt-store"},
		{"/srv/hall/table", "/srv/hall/table.mqtt-store"},
		{"off", ""},
	} {
		if got := storeBeside(c[0]); got != c[1] {
			t.Errorf("storeBeside(%q) = %q; want %q", c[0], got, c[1])
		}
	}
}
