package board

import (
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/config"
	"github.com/zertzboard/zertzboard/referee"
)

// TestFromFile: the configuration file's settings reach the board's
// Config, each where Run looks for it.
func TestFromFile(t *testing.T) {
	cfg, err := config.Parse("/etc/zertzboard/test.conf", strings.NewReader(`
[board]
id = club-3
variant = 48
mode = tournament
players = Ann, Bob
[hardware]
calibration = /var/lib/zertzboard/calibration.json
[journal]
path = /var/lib/zertzboard/club-3.jsonl
[mqtt]
broker = embedded
listen = 127.0.0.1:1884
websocket = off
password = board-pw
store = /var/lib/zertzboard/club-3.mqtt-store
max-packet = 32KiB
max-connections = 100
connection-rate = 4
[user alice]
password = alice-pw
role = operator
[analysis]
enabled = on
turns = 3
[http]
listen = 127.0.0.1:8081
results = /var/lib/zertzboard/results
`))
	if err != nil {
		t.Fatal(err)
	}
	_, r, cal := wallRig(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	c := FromFile(cfg, r, cal, log)
	if c.BoardID != "club-3" || c.Variant != "48" || c.Mode != referee.Tournament || c.Players != [2]string{"Ann", "Bob"} ||
		c.Rig != r || c.Calibration != cal || c.JournalPath != "/var/lib/zertzboard/club-3.jsonl" || c.Logger != log {
		t.Errorf("the board: %+v", c.Options)
	}
	if c.Analysis == nil || !c.Analysis.InTournament || c.Analysis.MaxTurns != 3 {
		t.Errorf("analysis = %+v; want on in tournament, 3 turns", c.Analysis)
	}
	if c.Broker != EmbeddedBroker || c.Listen != "127.0.0.1:1884" || c.WebSocket != "off" || c.Password != "board-pw" ||
		c.Store != "/var/lib/zertzboard/club-3.mqtt-store" || c.HTTP != "127.0.0.1:8081" || c.Results != "/var/lib/zertzboard/results" {
		t.Errorf("MQTT and web: %+v", c)
	}
	if len(c.Users) != 1 || c.Users[0] != (broker.User{Name: "alice", Password: "alice-pw", Role: broker.RoleOperator}) {
		t.Errorf("users = %+v", c.Users)
	}
	if c.Limits.MaxPacketSize != 32<<10 || c.Limits.MaxConns != 100 || c.Limits.ConnRate != 4 {
		t.Errorf("limits = %+v", c.Limits)
	}
	if c.Setting.Listen != "[mqtt] listen in /etc/zertzboard/test.conf" || c.Setting.HTTP != "[http] listen in /etc/zertzboard/test.conf" {
		t.Errorf("settings = %+v; want each key and the file", c.Setting)
	}
}
