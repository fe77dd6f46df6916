package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/broadcast"
	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/config"
	"github.com/zertzboard/zertzboard/controller"
	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/rig"
	"github.com/zertzboard/zertzboard/sensors/classify"
)

func init() {
	register(command{name: "run", summary: "the controller on a Raspberry Pi's real hardware", run: runRun})
}

const runAbout = `
Runs the controller on the board's real hardware: scans the Hall sensors,
referees the game, shows the guidance on the LEDs and the screen, journals
every committed turn (so a power cut loses none) and broadcasts the game
over MQTT, with the embedded broker unless the configuration names one.
SIGTERM or Ctrl-C stops it cleanly with the LEDs dark.

The configuration file is documented in the config package and in
firmware-config/README.md; "zertzboard calibrate" writes the calibration
it needs. Before any bus is opened, the wiring is checked against the Pi
(as "zertzboard check-wiring" does), which also picks the scan rate, and a
calibration measured with another ADC is refused. On a machine without the
hardware, use "zertzboard sim".

Examples:
  zertzboard run --config /etc/zertzboard/zertzboard.conf
  zertzboard run --config zertzboard.conf -v`

func runRun(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", "--config FILE", runAbout, stderr)
	path := fs.String("config", "/etc/zertzboard/zertzboard.conf", "the configuration file")
	verbose := fs.Bool("v", false, "log debug detail")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "zertzboard run: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	cfg, err := config.Load(*path)
	if err != nil {
		fmt.Fprintf(stderr, "zertzboard run: %v\n", err)
		return exitUsage
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}))
	if err := runDaemon(cfg, log, stderr, *verbose); err != nil {
		fmt.Fprintf(stderr, "zertzboard run: %v\n", err)
		return exitFault
	}
	return exitOK
}

// runDaemon opens the Pi's hardware from cfg and runs the daemon.
func runDaemon(cfg *config.Config, log *slog.Logger, stderr io.Writer, verbose bool) error {
	w := wiring.Reference()
	if cfg.Wiring != "" {
		var err error
		if w, err = wiring.Load(cfg.Wiring); err != nil {
			return err
		}
	}
	cal, err := classify.Load(cfg.Calibration, w.Base)
	if err != nil {
		return fmt.Errorf("%w (calibrate the board first: zertzboard calibrate --out %s)", err, cfg.Calibration)
	}
	o := rig.Options{Wiring: w, Check: pi.CheckOpts{BufSiz: cfg.SPIBufSiz, Rate: cfg.ScanRate}}
	if cfg.Pi != "" {
		if o.Model, err = pi.ByName(cfg.Pi); err != nil {
			return err
		}
	}
	r, err := rig.Open(o)
	if err != nil {
		if errors.Is(err, open.ErrNotFound) {
			err = fmt.Errorf("%w\n(no board hardware here? \"zertzboard sim\" runs the same controller on a simulated board)", err)
		}
		return err
	}
	defer r.Close()
	if err := r.CheckCalibration(cal); err != nil {
		return fmt.Errorf("%s: %w", cfg.Calibration, err)
	}
	log.Info("hardware", "pi", r.Report.Model.Title, "scan-rate", r.Report.Rate.String(), "scan", r.Report.Scan.Mean.String(), "ioctls-per-scan", r.Report.Scan.Ioctls)
	mode, err := referee.ParseMode(cfg.Mode.String())
	if err != nil {
		return err
	}
	var users []broker.User
	for _, u := range cfg.Users {
		users = append(users, broker.User{Name: u.Name, Password: u.Password, Role: broker.Role(u.Role)})
	}
	d := &daemon{
		setting: struct{ listen, ws, http string }{"[mqtt] listen in " + cfg.File, "[mqtt] websocket in " + cfg.File, "[http] listen in " + cfg.File},
		node: board.Options{BoardID: cfg.BoardID, Variant: cfg.Variant, First: cfg.First, Mode: mode, Players: cfg.Players,
			SettleMS: cfg.SettleMS, Rig: r.Devices, Calibration: cal, JournalPath: cfg.Journal, Logger: log, Language: cfg.Language,
			Analysis: analyst.ForSetting(cfg.Analysis, cfg.AnalysisTurns, cfg.AnalysisBudget, cfg.AnalysisEval), Control: cfg.Control, Event: cfg.Event,
			Play: &controller.Play{Engine: cfg.Engine, Level: cfg.EngineLevel}},
		broker: cfg.Broker, listen: cfg.Listen, ws: cfg.WebSocket, users: users,
		limits: broker.Limits{MaxPacketSize: uint32(cfg.Limits.MaxPacket), MaxClientIDLen: cfg.Limits.MaxClientID,
			MaxInflight: uint16(cfg.Limits.MaxInflight), MaxQueued: cfg.Limits.MaxQueued, MaxSubscriptions: cfg.Limits.MaxSubs, MaxConns: cfg.Limits.MaxConns,
			MaxConnsPerAddr: cfg.Limits.MaxConnsPerAddr, ConnRate: cfg.Limits.ConnRate},
		brokerCert: cfg.ServerCert, brokerKey: cfg.ServerKey,
		username: cfg.Username, password: cfg.Password, store: cfg.Store, token: cfg.Token,
		tls:  broadcast.TLSConfig{CAFile: cfg.CA, CertFile: cfg.Cert, KeyFile: cfg.Key},
		http: cfg.HTTP, results: cfg.HTTPResults, viewerUser: cfg.HTTPUsername, viewerPass: cfg.HTTPPassword, log: log, brokerLog: brokerLogger(stderr, verbose),
		ready: func(mqttURL, httpURL string) {
			log.Info("running", "board", cfg.BoardID, "mqtt", mqttURL, "web", httpURL, "journal", cfg.Journal)
		},
	}
	return d.run(context.Background())
}
