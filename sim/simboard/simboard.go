// Package simboard is the sim command's board: one board's runtime
// (package board) on a simulated table (package table), with the
// embedded broker and the scoreboard, from sim's flags. Its tests drive
// the whole controller end to end, in process and as processes: games
// played to their recorded end, clocks, the journal across kills and
// full disks, the hall of many boards, bridges and scoreboard pairs.
//
// Layer: players. May import: base, game, drivers, sensors, services,
// presentation, config, simulator, rig, board, players.
package simboard

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/controller"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/internal/cli"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	settlepkg "github.com/zertzboard/zertzboard/settle"
	"github.com/zertzboard/zertzboard/sim/table"
)

// Flags are sim's flags, as given (Define puts them on a flag set).
type Flags struct {
	game, mqttListen, wsListen, broker, username, password, http, results, operator, boardID string
	journal, mode, timeControl, analysis, event, language                                    string
	speed                                                                                    float64
	seed                                                                                     uint64
	settle                                                                                   int64
	scanHz, enginePlayer, engineLevel                                                        int
	stallEvery                                                                               time.Duration
	exitAtEnd, vsEngine, show, virtual, verbose                                              bool
}

// Define puts sim's flags, with their defaults and help, on fs.
func (f *Flags) Define(fs *flag.FlagSet) {
	fs.StringVar(&f.game, "game", "", `play this record (SGF or JSON), or "random", instead of the built-in games`)
	fs.Float64Var(&f.speed, "speed", 1, "how fast the simulated players move (2 = twice human speed)")
	fs.StringVar(&f.mqttListen, "mqtt-listen", "127.0.0.1:1883", "the embedded MQTT broker's TCP address (port 0 picks one)")
	fs.StringVar(&f.wsListen, "ws-listen", "127.0.0.1:8083", `the embedded broker's WebSocket address, for browsers ("off" for none)`)
	fs.StringVar(&f.broker, "broker", "embedded", "an external broker's URL (tcp://, ssl://, ws://) instead of the embedded one")
	fs.StringVar(&f.username, "username", "board", "the board's MQTT user name")
	fs.StringVar(&f.password, "password", "", "the board's MQTT password (embedded broker: a random one by default)")
	fs.StringVar(&f.http, "http", "127.0.0.1:8080", `the scoreboard's address ("off" for none)`)
	fs.StringVar(&f.results, "results", "", "keep finished games in this directory (the scoreboard's results page; default: in memory)")
	fs.StringVar(&f.operator, "operator", "", "USER:PASSWORD: an operator account on the embedded broker, for the arbiter console (/console)")
	fs.StringVar(&f.boardID, "board-id", "sim", "the board's name in MQTT topics")
	fs.BoolVar(&f.exitAtEnd, "exit-at-end", false, "stop after the game, once every message is delivered")
	fs.StringVar(&f.journal, "journal", "", `the journal file (default: a fresh one in a temporary directory; "off" for none)`)
	fs.StringVar(&f.mode, "mode", "casual", "casual or tournament")
	fs.StringVar(&f.timeControl, "time-control", "none", "the game clocks: none, sudden:DUR or fischer:DUR+INC (e.g. sudden:25m, fischer:20m+10s)")
	fs.StringVar(&f.analysis, "analysis", "auto", "live forced-win analysis on the scoreboard: on, off, or auto (on in casual mode, off in tournament)")
	fs.Uint64Var(&f.seed, "seed", 1, "seeds the players' behaviour and the sensor noise")
	fs.Int64Var(&f.settle, "settle", referee.DefaultSettleMS, "milliseconds the board must hold still before the referee counts it")
	fs.IntVar(&f.scanHz, "scan-hz", 200, "scans per second, 50 to 200 (many simulated boards on one machine: scan slower)")
	fs.DurationVar(&f.stallEvery, "stall-every", 0, "stall the scan for 150-600 ms about this often (e.g. 2s), as a starved Pi does, while the hands go on: the referee then infers turns and asks the players, who answer with the buttons (0: never)")
	fs.BoolVar(&f.vsEngine, "vs-engine", false, "play against the engine: the simulated person plays the record (their own turns once the engine leaves it) and the simulated hand carries out the engine's turns as the LEDs show them")
	fs.IntVar(&f.enginePlayer, "engine-player", 1, "with --vs-engine: the player the engine plays, 0 or 1")
	fs.IntVar(&f.engineLevel, "engine-level", search.DefaultLevel, "with --vs-engine: the engine's level, 1 (a beginner) to 10")
	fs.BoolVar(&f.show, "show", false, "draw the board in the terminal after every change")
	fs.StringVar(&f.event, "event", "", "the tournament's name, for the games' records (SGF EV[]), at most 100 bytes")
	fs.StringVar(&f.language, "language", "en", "the language of the status screen and of --show: en, de, fr, pl, ru, it, nl or es (MQTT stays English)")
	fs.BoolVar(&f.virtual, "virtual", false, "run the board and the players on virtual time, as fast as the CPU allows and the same on every run (for tests and quick checks; MQTT and the web page keep the wall clock)")
	fs.BoolVar(&f.verbose, "v", false, "log debug detail")
}

// Setup is what sim's flags ask for, checked.
type Setup struct {
	play    *controller.Play // --vs-engine
	mode    referee.Mode
	lang    i18n.Lang
	control clock.Control
	users   []broker.User
	games   []*record.Record
	note    string // which games, for the log
}

// Check checks the flags and reads what they name; its error names the
// bad flag and what it wants. errText gives an error's text without its
// package's prefix.
func (f *Flags) Check(errText func(error) string) (Setup, error) {
	var s Setup
	fail := func(format string, a ...any) (Setup, error) { return Setup{}, fmt.Errorf(format, a...) }
	if err := boardid.Check(f.boardID); err != nil {
		return fail("--board-id: %s", errText(err))
	}
	if settlepkg.Check(f.settle) != nil {
		return fail("--settle %d: want %d to %d ms", f.settle, settlepkg.MinMS, settlepkg.MaxMS)
	}
	if f.scanHz < 50 || f.scanHz > 200 {
		return fail("--scan-hz %d: want 50 to 200", f.scanHz)
	}
	if f.stallEvery != 0 && (f.stallEvery < time.Second || f.stallEvery > time.Hour) {
		return fail("--stall-every %s: want 0 (never) or 1s to 1h", f.stallEvery)
	}
	if len(f.event) > 100 || !utf8.ValidString(f.event) || strings.ContainsFunc(f.event, unicode.IsControl) {
		return fail("--event: want the event's name, at most 100 bytes of text")
	}
	if f.speed <= 0 || f.speed > 1000 {
		return fail("--speed %g: want more than 0 and at most 1000", f.speed)
	}
	if f.vsEngine {
		if f.enginePlayer != 0 && f.enginePlayer != 1 {
			return fail("--engine-player %d: want 0 or 1", f.enginePlayer)
		}
		if f.engineLevel < 1 || f.engineLevel > search.MaxLevel {
			return fail("--engine-level %d: want 1 to %d", f.engineLevel, search.MaxLevel)
		}
		if f.stallEvery != 0 {
			return fail("--stall-every and --vs-engine do not go together: the simulated hand carries out the engine's turns step by step as the LEDs show them")
		}
		s.play = &controller.Play{Engine: f.enginePlayer, Level: f.engineLevel, Seed: f.seed}
	}
	var err error
	if s.mode, err = referee.ParseMode(f.mode); err != nil {
		return fail("--mode %q: want casual or tournament", f.mode)
	}
	if s.lang, err = i18n.Parse(f.language); err != nil {
		return fail("--language: %s", errText(err))
	}
	if s.control, err = clock.Parse(f.timeControl); err != nil {
		return fail("--time-control: %s", errText(err))
	}
	if f.analysis != "auto" && f.analysis != "on" && f.analysis != "off" {
		return fail("--analysis %q: want auto, on or off", f.analysis)
	}
	if f.operator != "" {
		name, pass, ok := strings.Cut(f.operator, ":")
		if !ok || name == "" || pass == "" {
			return fail("--operator %q: want USER:PASSWORD", f.operator)
		}
		s.users = append(s.users, broker.User{Name: name, Password: pass, Role: broker.RoleOperator})
	}
	if s.games, s.note, err = table.Games(f.game, f.seed); err != nil {
		return fail("--game: %s", errText(err))
	}
	return s, nil
}

// Synopsis is the sim command's synopsis, for its usage.
const Synopsis = "[--game FILE] [--speed X] [--mqtt-listen ADDR] [--http ADDR] [--board-id ID] [--time-control TC] [--vs-engine [--engine-player P] [--engine-level L]] [--exit-at-end]"

// Main is program p's "sim" command: it reads its flags from args, checks
// them, and runs the board on its simulated table until ctx is done, an
// interrupt or SIGTERM comes, or (--exit-at-end) the first game is over
// and delivered. It returns the exit code: cli.ExitUsage for a bad flag
// (the message names it), cli.ExitFault when the board fails to run.
func Main(ctx context.Context, p *cli.Program, args []string, stdout, stderr io.Writer) int {
	fs := p.FlagSet("sim", Synopsis, p.HelpText("sim"), stderr)
	var f Flags
	f.Define(fs)
	if code, ok := cli.ParseFlags(fs, args); !ok {
		return code
	}
	fail := p.Failer("sim", stderr)
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	s, err := f.Check(p.ErrText)
	if err != nil {
		return fail("%s", err)
	}
	log := cli.Logger(stderr, slog.LevelInfo, f.verbose, false)
	if s.note != "" {
		log.Info(s.note)
	}
	if f.journal == "" {
		dir, err := os.MkdirTemp("", "zertzboard-sim-")
		if err != nil {
			return fail("%v", err)
		}
		defer os.RemoveAll(dir)
		f.journal = filepath.Join(dir, "journal.jsonl")
	}
	tb, err := table.Open(table.Config{Games: s.games, Speed: f.speed, SettleMS: f.settle, ScanHz: f.scanHz, Seed: f.seed,
		StallEvery: f.stallEvery, ExitAtEnd: f.exitAtEnd, Virtual: f.virtual, VsEngine: s.play != nil, EnginePlayer: f.enginePlayer, Log: log})
	if err != nil {
		return fail("%v", err)
	}
	defer tb.Close()
	first := s.games[0]
	var term io.Writer
	if f.show {
		term = stdout
	}
	cfg := board.Config{
		Setting: board.Settings{Listen: "--mqtt-listen", WebSocket: "--ws-listen", HTTP: "--http"},
		Options: board.Options{BoardID: f.boardID, Variant: first.Variant, First: first.First, Mode: s.mode, Players: first.Players,
			SettleMS: f.settle, Rig: tb.Rig(), Calibration: tb.Calibration(), JournalPath: f.journal, Logger: log, Terminal: term, OnFrame: tb.OnFrame, Language: s.lang, Event: f.event,
			OnButton: tb.OnButton, Analysis: analyst.ForSetting(f.analysis, 0, 0, 0), Control: s.control, Play: s.play, Lockstep: tb.Lockstep()},
		Broker: f.broker, Listen: f.mqttListen, WebSocket: f.wsListen, Username: f.username, Password: f.password,
		Store: board.StoreBeside(f.journal), HTTP: f.http, Results: f.results, Users: s.users, BrokerLog: board.BrokerLogger(stderr, f.verbose),
		Alongside: tb.Play, Spawn: tb.Spawn,
		Ready: func(mqttURL, httpURL string) {
			fmt.Fprintf(stdout, "%s sim: board %q is playing %s\n  MQTT   %s  (topics zertz/%s/...; try: mosquitto_sub -h 127.0.0.1 -p %s -t 'zertz/#' -v)\n",
				p.Name, f.boardID, table.Describe(first), mqttURL, f.boardID, portOf(mqttURL))
			if httpURL != "" {
				fmt.Fprintf(stdout, "  web    %s\n", httpURL)
			}
			fmt.Fprintf(stdout, "  journal %s\nPress Ctrl-C to stop.\n", f.journal)
		},
	}
	if err := board.Run(ctx, cfg); err != nil {
		fmt.Fprintf(stderr, "%s sim: %v\n", p.Name, err)
		return cli.ExitFault
	}
	return cli.ExitOK
}

func portOf(url string) string {
	if i := strings.LastIndexByte(url, ':'); i >= 0 {
		return url[i+1:]
	}
	return "1883"
}
