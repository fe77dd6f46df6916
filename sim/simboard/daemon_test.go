package simboard_test

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
