package board

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/broadcast"
	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/config"
	"github.com/zertzboard/zertzboard/controller"
	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/internal/cli"
	"github.com/zertzboard/zertzboard/rig"
	"github.com/zertzboard/zertzboard/sensors/classify"
)

// Config is everything one board's process runs with (Run): the board
// itself (Options) and what it talks to, the MQTT broadcast (through the
// embedded broker unless Broker names another) and the web page.
type Config struct {
	// Options is the board. Run sets its Publisher and Commands (MQTT);
	// Logger is the whole process's log, clipped and rate-limited per
	// client by Run (nil discards).
	Options
	// Broker is EmbeddedBroker ("embedded"; "" too) or an external
	// broker's URL (tcp://, ssl://, ws://, wss://).
	Broker string
	// Listen and WebSocket are the embedded broker's TCP and WebSocket
	// addresses (broker.Off for none).
	Listen, WebSocket string
	// Users are the embedded broker's accounts besides the board's own.
	Users []broker.User
	// Limits bound the embedded broker; zero fields take defaults.
	Limits broker.Limits
	// BrokerCert and BrokerKey (PEM files) put the embedded broker's
	// listeners on TLS.
	BrokerCert, BrokerKey string
	// Username and Password are the board's MQTT account; with the
	// embedded broker an empty name is DefaultUsername and an empty
	// password a random one.
	Username, Password string
	// Store is the MQTT store's directory ("" keeps messages in memory);
	// StoreBeside names one per journal.
	Store string
	// Token is an external broker's shared command token.
	Token string
	// TLS is the board's client TLS for an external broker.
	TLS broadcast.TLSConfig
	// HTTP is the web page's address (the scoreboard and /state.json);
	// "" or "off" for none.
	HTTP string
	// Results is the scoreboard's directory of finished games ("" keeps
	// them in memory only).
	Results string
	// ViewerUser and ViewerPassword are the scoreboard's account on an
	// external broker; an empty user is anonymous.
	ViewerUser, ViewerPassword string
	// BrokerLog is the embedded broker's log, which is chatty; nil
	// discards.
	BrokerLog *slog.Logger
	// Alongside, if not nil, runs beside the board (the simulator's
	// players); when it returns, Run stops.
	Alongside func(ctx context.Context, n *Node) error
	// Spawn, if not nil, starts Alongside's goroutine (go f() by
	// default): the simulator on virtual time makes it a participant of
	// its lockstep clock. Alongside starts before the board runs.
	Spawn func(f func())
	// Ready, if not nil, is called once everything listens, with the
	// board's MQTT URL and the web page's ("" for none).
	Ready func(mqttURL, httpURL string)
	// Setting names how a user changes each listening address (a flag or
	// a configuration key), for the error when one is in use.
	Setting Settings
	// closing, in tests, sees each thing Run closes, as it closes it.
	closing func(what string)
}

// Settings name the flag or configuration key of each listening address.
type Settings struct{ Listen, WebSocket, HTTP string }

// EmbeddedBroker as Config.Broker runs the MQTT broker in process.
const EmbeddedBroker = "embedded"

// DefaultUsername is the board's account on its embedded broker when
// Config.Username is empty.
const DefaultUsername = "board"

// FromFile is the board's Config from the configuration file, on a rig
// opened with OpenHardware; log is the process's log.
func FromFile(cfg *config.Config, r *open.Rig, cal *classify.Calibration, log *slog.Logger) Config {
	var users []broker.User
	for _, u := range cfg.Users {
		users = append(users, broker.User{Name: u.Name, Password: u.Password, Role: broker.Role(u.Role)})
	}
	in := " in " + cfg.File
	return Config{
		Options: Options{BoardID: cfg.BoardID, Variant: cfg.Variant, First: cfg.First, Mode: cfg.Mode, Players: cfg.Players,
			SettleMS: cfg.SettleMS, Rig: r, Calibration: cal, JournalPath: cfg.Journal, Logger: log, Language: cfg.Language,
			Analysis: analyst.ForSetting(cfg.Analysis, cfg.AnalysisTurns, cfg.AnalysisBudget, cfg.AnalysisEval),
			Control:  cfg.Control, Event: cfg.Event, Play: &controller.Play{Engine: cfg.Engine, Level: cfg.EngineLevel}},
		Broker: cfg.Broker, Listen: cfg.Listen, WebSocket: cfg.WebSocket, Users: users, Limits: brokerLimits(cfg.Limits),
		BrokerCert: cfg.ServerCert, BrokerKey: cfg.ServerKey,
		Username: cfg.Username, Password: cfg.Password, Store: cfg.Store, Token: cfg.Token,
		TLS:  broadcast.TLSConfig{CAFile: cfg.CA, CertFile: cfg.Cert, KeyFile: cfg.Key},
		HTTP: cfg.HTTP, Results: cfg.HTTPResults, ViewerUser: cfg.HTTPUsername, ViewerPassword: cfg.HTTPPassword,
		Ready: func(mqttURL, httpURL string) {
			log.Info("running", "board", cfg.BoardID, "mqtt", mqttURL, "web", httpURL, "journal", cfg.Journal)
		},
		Setting: Settings{Listen: "[mqtt] listen" + in, WebSocket: "[mqtt] websocket" + in, HTTP: "[http] listen" + in},
	}
}

// brokerLimits maps the configuration's [mqtt] limits onto the broker's.
func brokerLimits(l config.Limits) broker.Limits {
	return broker.Limits{MaxPacketSize: uint32(l.MaxPacket), MaxClientIDLen: l.MaxClientID,
		MaxInflight: uint16(l.MaxInflight), MaxQueued: l.MaxQueued, MaxSubscriptions: l.MaxSubs, MaxConns: l.MaxConns,
		MaxConnsPerAddr: l.MaxConnsPerAddr, ConnRate: l.ConnRate}
}

// OpenHardware opens the Raspberry Pi's board hardware the configuration
// names, after checking the wiring against the Pi, and loads its
// calibration (refused if measured with another ADC). The caller closes
// the rig.
func OpenHardware(cfg *config.Config) (*rig.Rig, *classify.Calibration, error) {
	w := wiring.Reference()
	if cfg.Wiring != "" {
		var err error
		if w, err = wiring.Load(cfg.Wiring); err != nil {
			return nil, nil, err
		}
	}
	cal, err := classify.Load(cfg.Calibration, w.Base)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (calibrate the board first: zertzboard calibrate --out %s)", err, cfg.Calibration)
	}
	o := rig.Options{Wiring: w, Check: pi.CheckOpts{BufSiz: cfg.SPIBufSiz, Rate: cfg.ScanRate}}
	if cfg.Pi != "" {
		if o.Model, err = pi.ByName(cfg.Pi); err != nil {
			return nil, nil, err
		}
	}
	r, err := rig.Open(o)
	if err != nil {
		if errors.Is(err, open.ErrNotFound) {
			err = fmt.Errorf("%w\n(no board hardware here? \"zertzboard sim\" runs the same controller on a simulated board)", err)
		}
		return nil, nil, err
	}
	if err := r.CheckCalibration(cal); err != nil {
		r.Close()
		return nil, nil, fmt.Errorf("%s: %w", cfg.Calibration, err)
	}
	return r, cal, nil
}

// StoreBeside returns the MQTT store directory next to a journal file:
// one store per journal, so that boards whose journals share a directory
// do not share a store (each would send the other's messages and lose its
// own). The packaged name, journal.jsonl, keeps the store its older
// versions used; JournalOff keeps messages in memory ("").
func StoreBeside(journal string) string {
	if journal == JournalOff {
		return ""
	}
	name := filepath.Base(journal)
	if name == "journal.jsonl" {
		return filepath.Join(filepath.Dir(journal), "mqtt-store")
	}
	return filepath.Join(filepath.Dir(journal), strings.TrimSuffix(name, filepath.Ext(name))+".mqtt-store")
}

// BrokerLogger is a command's log for the embedded broker, which is
// chatty: its warnings, or everything when verbose (-v), marked
// part=broker.
func BrokerLogger(w io.Writer, verbose bool) *slog.Logger {
	return cli.Logger(w, slog.LevelWarn, verbose, false).With("part", "broker")
}
