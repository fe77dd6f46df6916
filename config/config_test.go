package config

import (
	"path/filepath"
	"strings"
	"testing"

	"periph.io/x/conn/v3/physic"
)

const example = `
[board]
id = club-3
variant = 37b
mode = tournament
first = 1
players = Ann, Bob
settle = 150ms
language = pl-PL

[hardware]
calibration = /tmp/cal.json

[mqtt]
broker = embedded
password = s3cret

[user alice]
password = pw
role = operator

[http]
listen = off
username = tv
password = tv-pw
results = /var/lib/zertzboard/results
`

func TestParse(t *testing.T) {
	c, err := Parse("z.conf", strings.NewReader(example))
	if err != nil {
		t.Fatal(err)
	}
	if c.BoardID != "club-3" || c.Variant != "37b" || c.Mode != "tournament" || c.First != 1 || c.Players != [2]string{"Ann", "Bob"} || c.SettleMS != 150 || c.Language != "pl" {
		t.Errorf("board: %+v", c)
	}
	if c.Calibration != "/tmp/cal.json" || c.Wiring != "" || c.Journal != Defaults.Journal || c.Listen != Defaults.Listen || c.HTTP != "off" {
		t.Errorf("defaults and paths: %+v", c)
	}
	if c.HTTPUsername != "tv" || c.HTTPPassword != "tv-pw" || c.HTTPResults != "/var/lib/zertzboard/results" {
		t.Errorf("scoreboard account %q/%q, results %q", c.HTTPUsername, c.HTTPPassword, c.HTTPResults)
	}
	if len(c.Users) != 1 || c.Users[0] != (User{"alice", "pw", "operator"}) || c.Password != "s3cret" {
		t.Errorf("users %+v", c.Users)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"[board]\nvariant = 39", "z.conf:2: board.variant: engine: unknown variant"},
		{"[board]\nmode = strict", "z.conf:2: board.mode: \"strict\": want casual or tournament"},
		{"[board]\nid = a/b", "z.conf:2: board.id"},
		{"[board]\nsettle = 5ms", "z.conf:2: board.settle"},
		{"[board]\ncolour = red", "z.conf:2: board.colour: unknown key"},
		{"[board]\nlanguage = pt", "z.conf:2: board.language: i18n: unknown language \"pt\": want one of en, de, fr, pl, ru, it, nl, es"},
		{"[boards]", "z.conf:1: boards: unknown section"},
		{"[user]\nrole = viewer", "z.conf:1: user: [user NAME] takes a name"},
		{"[user bob]\nrole = viewer", "z.conf:1: user.bob: needs a password and a role"},
		{"[user bob]\npassword = x\nrole = admin", "z.conf:3: user.bob.role"},
		{"[mqtt]\nbroker = localhost", "z.conf:2: mqtt.broker"},
		{"[board\n", "z.conf:1: section header"},
		{"[hardware]\npi = 2b", "z.conf:2: hardware.pi: \"2b\": want auto or one of zero, zero2w, 3b, 4b, 5"},
		{"[hardware]\nscan-rate = 50Hz", "z.conf:2: hardware.scan-rate"},
		{"[hardware]\nspidev-bufsiz = lots", "z.conf:2: hardware.spidev-bufsiz"},
		{"[board]\nid = " + strings.Repeat("b", 65), "z.conf:2: board.id: bad board ID"},
		{"[board]\nid = table 1", "z.conf:2: board.id: bad board ID"},
		{"[mqtt]\nmax-packet = 1KiB", "z.conf:2: mqtt.max-packet"},
		{"[mqtt]\nmax-packet = lots", "z.conf:2: mqtt.max-packet"},
		{"[mqtt]\nmax-client-id = 8", "z.conf:2: mqtt.max-client-id"},
		{"[mqtt]\nconnection-rate = 0", "z.conf:2: mqtt.connection-rate"},
		{"[mqtt]\nmax-connections = -1", "z.conf:2: mqtt.max-connections"},
		{"[mqtt]\nserver-cert = /c.pem", "mqtt: server-cert and server-key go together"},
	} {
		if _, err := Parse("z.conf", strings.NewReader(tt.src)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v; want %q", tt.src, err, tt.want)
		}
	}
}

func TestParseHardware(t *testing.T) {
	c, err := Parse("z.conf", strings.NewReader("[hardware]\npi = zero\nscan-rate = 100Hz\nspidev-bufsiz = 8192\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Pi != "zero" || c.ScanRate != 100*physic.Hertz || c.SPIBufSiz != 8192 {
		t.Errorf("hardware: pi %q, scan rate %s, bufsiz %d", c.Pi, c.ScanRate, c.SPIBufSiz)
	}
	c, err = Parse("z.conf", strings.NewReader("[hardware]\npi = auto\nscan-rate = auto\n"))
	if err != nil || c.Pi != "" || c.ScanRate != 0 {
		t.Errorf("auto: %+v, %v", c, err)
	}
}

func TestBrokerLimitsAndTLS(t *testing.T) {
	c, err := Parse("z.conf", strings.NewReader(`
[mqtt]
server-cert = /etc/zertzboard/broker.pem
server-key = /etc/zertzboard/broker.key
max-packet = 128KiB
max-client-id = 64
max-inflight = 10
max-queued = 20
max-subscriptions = 8
max-connections = 100
max-connections-per-address = 5
connection-rate = 2.5
`))
	if err != nil {
		t.Fatal(err)
	}
	want := Limits{MaxPacket: 128 << 10, MaxClientID: 64, MaxInflight: 10, MaxQueued: 20, MaxSubs: 8, MaxConns: 100, MaxConnsPerAddr: 5, ConnRate: 2.5}
	if c.Limits != want || c.ServerCert != "/etc/zertzboard/broker.pem" || c.ServerKey != "/etc/zertzboard/broker.key" {
		t.Errorf("limits %+v, TLS %q %q; want %+v", c.Limits, c.ServerCert, c.ServerKey, want)
	}
	if d, _ := Parse("z.conf", strings.NewReader("[mqtt]\nmax-packet = 65536")); d.Limits.MaxPacket != 65536 {
		t.Errorf("max-packet = 65536 read as %d", d.Limits.MaxPacket)
	}
}

// The example shipped in firmware-config/ must parse.
func TestShippedExample(t *testing.T) {
	c, err := Load("../firmware-config/zertzboard.conf")
	if err != nil {
		t.Fatal(err)
	}
	if c.BoardID != "board-1" || c.Mode != "tournament" || c.Wiring != "/etc/zertzboard/wiring" || len(c.Users) != 1 || c.Users[0].Role != "operator" {
		t.Errorf("example config: %+v", c)
	}
	// The packaged configuration keeps results on disk, in the state
	// directory with the journal, so a restart loses none.
	if c.HTTPResults != "/var/lib/zertzboard/results" || filepath.Dir(c.HTTPResults) != filepath.Dir(c.Journal) {
		t.Errorf("the shipped configuration keeps results in %q (journal %q); want /var/lib/zertzboard/results", c.HTTPResults, c.Journal)
	}
}

// The event goes into the records; it is bounded text.
func TestEvent(t *testing.T) {
	c, err := Parse("z.conf", strings.NewReader("[board]\nevent = Open de Zürich 2026\n"))
	if err != nil || c.Event != "Open de Zürich 2026" {
		t.Errorf("event %q, %v", c.Event, err)
	}
	if c, err := Parse("z.conf", strings.NewReader("[board]\nid = b\n")); err != nil || c.Event != "" {
		t.Errorf("no event: %q, %v", c.Event, err)
	}
	if _, err := Parse("z.conf", strings.NewReader("[board]\nevent = "+strings.Repeat("x", 101)+"\n")); err == nil || !strings.Contains(err.Error(), "z.conf:2: board.event: ") || !strings.Contains(err.Error(), "at most 100 bytes") {
		t.Errorf("a long event: %v", err)
	}
}

// Results are kept on disk unless the file says off.
func TestResultsDefault(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"[board]\nid = b\n", "/var/lib/zertzboard/results"},
		{"[http]\nresults = /srv/results\n", "/srv/results"},
		{"[http]\nresults = off\n", ""},
	} {
		c, err := Parse("z.conf", strings.NewReader(tc.src))
		if err != nil || c.HTTPResults != tc.want {
			t.Errorf("%q: results %q, %v; want %q", tc.src, c.HTTPResults, err, tc.want)
		}
	}
	if _, err := Parse("z.conf", strings.NewReader("[http]\nresults =\n")); err == nil || !strings.Contains(err.Error(), "z.conf:2: http.results: no directory") {
		t.Errorf("an empty results: %v", err)
	}
}
