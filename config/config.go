// Package config reads the daemon's configuration file, in the INI dialect
// of the wiring file:
//
//	[board]
//	id = club-3               # names the board in MQTT topics
//	variant = 48              # 37, 40, 43, 44, 48 or 61; a "b" suffix for blitz
//	mode = tournament         # casual or tournament
//	first = 0                 # who moves first in a new game
//	players = Ann, Bob
//	event = Club Open 2026    # the tournament, for the records (SGF EV[])
//	settle = 100ms            # how long the board must hold still
//	language = pl             # the status screen's: en, de, fr, pl, ru, it, nl or es
//
//	[hardware]
//	wiring = /etc/zertzboard/base.wiring          # default: the reference wiring
//	calibration = /var/lib/zertzboard/calibration.json
//	pi = auto                 # zero, zero2w, 3b, 4b, 5; auto reads /proc/device-tree/model
//	scan-rate = auto          # 100Hz-200Hz; auto: 200 Hz where the scan fits, else 100 Hz
//	spidev-bufsiz = 4096      # as raised in cmdline.txt (spidev.bufsiz=N)
//
//	[journal]
//	path = /var/lib/zertzboard/journal.jsonl
//
//	[mqtt]
//	broker = embedded         # or a URL: tcp://, ssl://, ws://, wss://
//	listen = 127.0.0.1:1883   # embedded: TCP listener ("off" for none)
//	websocket = 127.0.0.1:8083
//	username = board          # the board's own account
//	password = …
//	store = /var/lib/zertzboard/mqtt   # queued messages survive restarts
//	token =                   # external brokers: a shared command token
//	ca = / cert = / key =     # TLS files for ssl:// and wss://
//	server-cert = …           # embedded: TLS for both listeners (PEM),
//	server-key = …            #   with server-key; else in clear
//	max-packet = 64KiB        # embedded: the largest MQTT packet accepted
//	max-client-id = 128       # embedded: the longest client ID (bytes)
//	max-inflight = 64         # embedded: unacknowledged QoS 1 messages per client
//	max-queued = 64           # embedded: packets waiting for a slow client
//	max-subscriptions = 64    # embedded: subscriptions per client
//	max-connections = 256     # embedded: open connections per listener
//	max-connections-per-address = 32
//	connection-rate = 8       # embedded: new connections per second per address
//
//	[user alice]              # embedded broker accounts
//	password = …
//	role = operator           # board, operator or viewer
//
//	[clock]                   # game clocks kept by the board
//	control = fischer:20m+10s # none, sudden:DUR or fischer:DUR+INC (DUR 10s
//	                          # to 6h, INC up to 10m); a new-game command
//	                          # may set another for its game
//
//	[analysis]                # live forced-win analysis for the stream
//	enabled = auto            # on, off, or auto: on in casual mode, off in
//	                          # tournament mode (players must not see it)
//	turns = 2                 # look for wins within so many own turns (1 to 4)
//	budget = 1s               # time for one position (10ms to 60s)
//	eval = 5                  # the engine's evaluation and best turn in the
//	                          # same budget: its level 1 to 10, or off
//
//	[play]                    # play against the engine on the board
//	engine = none             # the player the engine plays, 0 or 1, or none;
//	                          # a new-game command may say otherwise
//	level = 6                 # its strength, 1 (a beginner) to 10
//
//	[http]
//	listen = 127.0.0.1:8080   # the scoreboard; "off" for none
//	username = …              # external broker: a viewer account for the
//	password = …              # scoreboard (default: anonymous)
//	results = /var/lib/zertzboard/results
//	                          # finished games, kept across restarts (each
//	                          # GAME.json a plain record, GAME.result beside
//	                          # it); "off" keeps them in memory only
//
// Errors name the file, the line and the field.
//
// Layer: config. May import: base, game, drivers, sensors, services,
// presentation, config.
package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"periph.io/x/conn/v3/physic"

	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/internal/ini"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/settle"
)

// User is an account on the embedded broker.
type User struct {
	Name, Password, Role string
}

// Config is a checked daemon configuration.
type Config struct {
	File string

	BoardID string
	Variant string
	Mode    referee.Mode
	First   int
	Players [2]string
	// Event names the tournament the board's games are played in, for
	// their records (the JSON record's event, SGF EV[]); "" for none.
	Event    string
	SettleMS int64
	// Language is the status screen's language (the wire stays English).
	Language i18n.Lang

	Wiring      string // "" means the reference wiring
	Calibration string
	// Pi is the Raspberry Pi model (hardware/pi); "" reads it from the
	// device tree.
	Pi string
	// ScanRate is the scan rate; 0 lets the wiring check choose.
	ScanRate physic.Frequency
	// SPIBufSiz is spidev's bufsiz; 0 means its default, 4096.
	SPIBufSiz int

	Journal string

	Broker        string // "embedded" or a URL
	Listen        string
	WebSocket     string
	Username      string
	Password      string
	Store         string
	Token         string
	CA, Cert, Key string
	Users         []User
	// ServerCert and ServerKey put the embedded broker on TLS.
	ServerCert, ServerKey string
	// Limits are the embedded broker's; zero means its default.
	Limits Limits

	HTTP         string
	HTTPUsername string // a viewer account on an external broker
	HTTPPassword string
	// HTTPResults is the directory the scoreboard keeps finished games in,
	// by default results/ in the state directory beside the journal; ""
	// (results = off) keeps them in memory only.
	HTTPResults string

	Analysis       string // "auto", "on" or "off"
	AnalysisTurns  int
	AnalysisBudget time.Duration
	// AnalysisEval is the evaluation's engine level, 1 to 10; -1 is off.
	AnalysisEval int
	// Engine is the player the engine plays, 0 or 1, or -1 for none
	// ([play] engine); EngineLevel its level, 1 to 10.
	Engine      int
	EngineLevel int

	// Control is the time control of new games ([clock] control).
	Control clock.Control
}

// AnalysisOn reports whether live analysis runs: "auto" means in casual
// mode only.
func (c *Config) AnalysisOn() bool {
	return c.Analysis == "on" || c.Analysis == "auto" && c.Mode != referee.Tournament
}

// Limits bound the embedded broker (broker.Limits).
type Limits struct {
	MaxPacket       int // bytes
	MaxClientID     int // bytes
	MaxInflight     int
	MaxQueued       int
	MaxSubs         int
	MaxConns        int
	MaxConnsPerAddr int
	ConnRate        float64 // per second per address
}

// maxEvent bounds [board] event, in bytes.
const maxEvent = 100

// clip bounds a value quoted in an error.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// Defaults are used for keys the file leaves out.
var Defaults = Config{
	BoardID: "board", Variant: "48", Mode: referee.Casual, SettleMS: settle.DefaultMS, Language: i18n.EN,
	Journal: "/var/lib/zertzboard/journal.jsonl", Calibration: "/var/lib/zertzboard/calibration.json",
	Broker: "embedded", Listen: "127.0.0.1:1883", WebSocket: "127.0.0.1:8083", Username: "board",
	Store: "/var/lib/zertzboard/mqtt", HTTP: "127.0.0.1:8080", HTTPResults: "/var/lib/zertzboard/results",
	Analysis: "auto", AnalysisTurns: 2, AnalysisBudget: time.Second, AnalysisEval: 5,
	Engine: -1, EngineLevel: 6,
}

// Load reads and checks a configuration file.
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	return Parse(path, f)
}

// Parse reads and checks a configuration.
func Parse(name string, r io.Reader) (*Config, error) {
	secs, err := ini.Parse(name, r)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c := Defaults
	c.File = name
	bad := func(s *ini.Section, e *ini.Entry, format string, a ...any) error {
		return fmt.Errorf("config: %w", &ini.Error{File: name, Line: e.Line, Field: s.Field(e.Key), Msg: fmt.Sprintf(format, a...)})
	}
	known := map[string][]string{
		"board":    {"id", "variant", "mode", "first", "players", "settle", "language", "event"},
		"hardware": {"wiring", "calibration", "pi", "scan-rate", "spidev-bufsiz"},
		"journal":  {"path"},
		"mqtt": {"broker", "listen", "websocket", "username", "password", "store", "token", "ca", "cert", "key",
			"server-cert", "server-key", "max-packet", "max-client-id", "max-inflight", "max-queued", "max-subscriptions",
			"max-connections", "max-connections-per-address", "connection-rate"},
		"user":     {"password", "role"},
		"http":     {"listen", "username", "password", "results"},
		"analysis": {"enabled", "turns", "budget", "eval"},
		"clock":    {"control"},
		"play":     {"engine", "level"},
	}
	for _, s := range secs {
		keys, ok := known[s.Name]
		if !ok {
			return nil, fmt.Errorf("config: %w", &ini.Error{File: name, Line: s.Line, Field: s.Name, Msg: "unknown section (want board, hardware, journal, mqtt, user, http, analysis, clock or play)"})
		}
		if (s.Name == "user") != (s.Arg != "") {
			return nil, fmt.Errorf("config: %w", &ini.Error{File: name, Line: s.Line, Field: s.Name, Msg: "[user NAME] takes a name; other sections take none"})
		}
		var u User
		for i := range s.Entries {
			e := &s.Entries[i]
			if !contains(keys, e.Key) {
				return nil, bad(s, e, "unknown key (want one of %s)", strings.Join(keys, ", "))
			}
			var err error
			switch s.Name {
			case "board":
				err = c.setBoard(e.Key, e.Value)
			case "hardware":
				err = c.setHardware(e.Key, e.Value)
			case "journal":
				err = c.setJournal(e.Key, e.Value)
			case "clock":
				err = c.setClock(e.Key, e.Value)
			case "mqtt":
				err = c.setMQTT(e.Key, e.Value)
			case "user":
				err = u.set(e.Key, e.Value)
			case "http":
				err = c.setHTTP(e.Key, e.Value)
			case "analysis":
				err = c.setAnalysis(e.Key, e.Value)
			case "play":
				err = c.setPlay(e.Key, e.Value)
			}
			if err != nil {
				return nil, bad(s, e, "%v", err)
			}
		}
		if s.Name == "mqtt" && (c.ServerCert == "") != (c.ServerKey == "") {
			return nil, fmt.Errorf("config: %w", &ini.Error{File: name, Line: s.Line, Field: "mqtt", Msg: "server-cert and server-key go together"})
		}
		if s.Name == "user" {
			u.Name = s.Arg
			if u.Password == "" || u.Role == "" {
				return nil, fmt.Errorf("config: %w", &ini.Error{File: name, Line: s.Line, Field: "user." + s.Arg, Msg: "needs a password and a role"})
			}
			c.Users = append(c.Users, u)
		}
	}
	return &c, nil
}

// setBoard sets one key of [board], or says what the value should be.
func (c *Config) setBoard(key, v string) error {
	switch key {
	case "id":
		if err := boardid.Check(v); err != nil {
			return err
		}
		c.BoardID = v
	case "variant":
		if _, _, err := engine.ParseVariant(v); err != nil {
			return err
		}
		c.Variant = v
	case "mode":
		m, err := referee.ParseMode(v)
		if err != nil {
			return fmt.Errorf("%q: want casual or tournament", v)
		}
		c.Mode = m
	case "first":
		if v != "0" && v != "1" {
			return fmt.Errorf("%q: want 0 or 1", v)
		}
		c.First, _ = strconv.Atoi(v)
	case "event":
		if len(v) > maxEvent || !utf8.ValidString(v) || strings.ContainsFunc(v, unicode.IsControl) {
			return fmt.Errorf("%q: want the event's name, at most %d bytes of text", clip(v, 40), maxEvent)
		}
		c.Event = v
	case "players":
		p := strings.Split(v, ",")
		if len(p) != 2 {
			return fmt.Errorf("%q: want two names separated by a comma", v)
		}
		c.Players = [2]string{strings.TrimSpace(p[0]), strings.TrimSpace(p[1])}
	case "settle":
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("%q: want a duration from %dms to %dms", v, settle.MinMS, settle.MaxMS)
		}
		if err := settle.Check(d.Milliseconds()); err != nil {
			return err
		}
		c.SettleMS = d.Milliseconds()
	case "language":
		l, err := i18n.Parse(v)
		if err != nil {
			return err
		}
		c.Language = l
	}
	return nil
}

// setHardware sets one key of [hardware], or says what the value should be.
func (c *Config) setHardware(key, v string) error {
	switch key {
	case "wiring":
		c.Wiring = v
	case "calibration":
		c.Calibration = v
	case "pi":
		if v == "auto" {
			c.Pi = ""
			break
		}
		if _, err := pi.ByName(v); err != nil {
			return fmt.Errorf("%q: want auto or one of %s", v, pi.Names())
		}
		c.Pi = v
	case "scan-rate":
		if v == "auto" {
			c.ScanRate = 0
			break
		}
		var f physic.Frequency
		if err := f.Set(v); err != nil || f < 100*physic.Hertz || f > 1000*physic.Hertz {
			return fmt.Errorf("%q: want auto or a rate from 100Hz to 1kHz (below 100 Hz a quick hand falls between scans)", v)
		}
		c.ScanRate = f
	case "spidev-bufsiz":
		n, err := strconv.Atoi(v)
		if err != nil || n < 64 || n > 1<<20 {
			return fmt.Errorf("%q: want spidev's bufsiz in bytes, 64 to 1048576", v)
		}
		c.SPIBufSiz = n
	}
	return nil
}

// setJournal sets one key of [journal], or says what the value should be.
func (c *Config) setJournal(key, v string) error {
	switch key {
	case "path":
		c.Journal = v
	}
	return nil
}

// setClock sets one key of [clock], or says what the value should be.
func (c *Config) setClock(key, v string) error {
	switch key {
	case "control":
		ctl, err := clock.Parse(v)
		if err != nil {
			return fmt.Errorf("%q: want none, sudden:DUR or fischer:DUR+INC (DUR 10s to 6h, INC up to 10m, in h, m and s), e.g. fischer:20m+10s", v)
		}
		c.Control = ctl
	}
	return nil
}

// setMQTT sets one key of [mqtt], or says what the value should be.
func (c *Config) setMQTT(key, v string) error {
	var err error
	switch key {
	case "broker":
		if v != "embedded" && !hasScheme(v) {
			return fmt.Errorf("%q: want embedded or a URL (tcp://, ssl://, ws://, wss://)", v)
		}
		c.Broker = v
	case "listen":
		c.Listen = v
	case "websocket":
		c.WebSocket = v
	case "username":
		c.Username = v
	case "password":
		c.Password = v
	case "store":
		c.Store = v
	case "token":
		c.Token = v
	case "ca":
		c.CA = v
	case "cert":
		c.Cert = v
	case "key":
		c.Key = v
	case "server-cert":
		c.ServerCert = v
	case "server-key":
		c.ServerKey = v
	case "max-packet":
		n, err := parseSize(v)
		if err != nil || n < 4<<10 || n > 256<<20 {
			return fmt.Errorf("%q: want a size from 4KiB to 256MiB (bytes, or with KiB or MiB)", v)
		}
		c.Limits.MaxPacket = n
	case "max-client-id":
		if c.Limits.MaxClientID, err = atoiIn(v, 23, 65535); err != nil {
			return fmt.Errorf("%q: want 23 to 65535 bytes (MQTT requires 23)", v)
		}
	case "max-inflight":
		if c.Limits.MaxInflight, err = atoiIn(v, 1, 65535); err != nil {
			return fmt.Errorf("%q: want 1 to 65535", v)
		}
	case "max-queued":
		if c.Limits.MaxQueued, err = atoiIn(v, 1, 65535); err != nil {
			return fmt.Errorf("%q: want 1 to 65535", v)
		}
	case "max-subscriptions":
		if c.Limits.MaxSubs, err = atoiIn(v, 1, 65535); err != nil {
			return fmt.Errorf("%q: want 1 to 65535", v)
		}
	case "max-connections":
		if c.Limits.MaxConns, err = atoiIn(v, 1, 65535); err != nil {
			return fmt.Errorf("%q: want 1 to 65535", v)
		}
	case "max-connections-per-address":
		if c.Limits.MaxConnsPerAddr, err = atoiIn(v, 1, 65535); err != nil {
			return fmt.Errorf("%q: want 1 to 65535", v)
		}
	case "connection-rate":
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || !(f > 0 && f <= 10000) {
			return fmt.Errorf("%q: want connections per second, more than 0 and at most 10000", v)
		}
		c.Limits.ConnRate = f
	}
	return nil
}

// set sets one key of [user NAME], or says what the value should be.
func (u *User) set(key, v string) error {
	switch key {
	case "password":
		u.Password = v
	case "role":
		if v != "board" && v != "operator" && v != "viewer" {
			return fmt.Errorf("%q: want board, operator or viewer", v)
		}
		u.Role = v
	}
	return nil
}

// setHTTP sets one key of [http], or says what the value should be.
func (c *Config) setHTTP(key, v string) error {
	switch key {
	case "listen":
		c.HTTP = v
	case "username":
		c.HTTPUsername = v
	case "password":
		c.HTTPPassword = v
	case "results":
		if v == "" {
			return errors.New("no directory: want a directory, or off to keep results in memory only")
		}
		if v == "off" {
			v = ""
		}
		c.HTTPResults = v
	}
	return nil
}

// setAnalysis sets one key of [analysis], or says what the value should be.
func (c *Config) setAnalysis(key, v string) error {
	switch key {
	case "enabled":
		if v != "auto" && v != "on" && v != "off" {
			return fmt.Errorf("%q: want auto, on or off", v)
		}
		c.Analysis = v
	case "turns":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 4 {
			return fmt.Errorf("%q: want 1 to 4 own turns", v)
		}
		c.AnalysisTurns = n
	case "budget":
		d, err := time.ParseDuration(v)
		if err != nil || d < 10*time.Millisecond || d > time.Minute {
			return fmt.Errorf("%q: want a duration from 10ms to 60s", v)
		}
		c.AnalysisBudget = d
	case "eval":
		if v == "off" {
			c.AnalysisEval = -1
			break
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10 {
			return fmt.Errorf("%q: want an engine level from 1 to 10, or off", v)
		}
		c.AnalysisEval = n
	}
	return nil
}

// setPlay sets one key of [play], or says what the value should be.
func (c *Config) setPlay(key, v string) error {
	switch key {
	case "engine":
		switch v {
		case "0", "1":
			c.Engine = int(v[0] - '0')
		case "none":
			c.Engine = -1
		default:
			return fmt.Errorf("%q: want 0 or 1 (the player the engine plays) or none", v)
		}
	case "level":
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10 {
			return fmt.Errorf("%q: want an engine level from 1 (a beginner) to 10", v)
		}
		c.EngineLevel = n
	}
	return nil
}

// parseSize reads bytes: "65536", "64KiB", "1MiB".
func parseSize(v string) (int, error) {
	mul := 1
	for suffix, m := range map[string]int{"KiB": 1 << 10, "MiB": 1 << 20} {
		if n, ok := strings.CutSuffix(v, suffix); ok {
			v, mul = strings.TrimSpace(n), m
		}
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > (1<<30)/mul {
		return 0, fmt.Errorf("bad size %q", v)
	}
	return n * mul, nil
}

func atoiIn(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q out of range", v)
	}
	return n, nil
}

func hasScheme(u string) bool {
	for _, s := range []string{"tcp://", "ssl://", "ws://", "wss://", "mqtt://", "mqtts://"} {
		if strings.HasPrefix(u, s) {
			return true
		}
	}
	return false
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
