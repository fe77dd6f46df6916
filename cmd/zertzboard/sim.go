package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/controller"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/referee"
	settlepkg "github.com/zertzboard/zertzboard/settle"
	"github.com/zertzboard/zertzboard/sim/table"
)

func init() {
	register(command{name: "sim", summary: "the whole controller on a simulated board, with MQTT and the scoreboard", run: runSim})
}

const simAbout = `
Runs the whole controller on a simulated board: virtual Hall sensors read
through the real ADC and mux drivers, the classifier, the referee, the
journal, the LEDs and the screen (decoded at the bus), with an embedded MQTT
broker and the scoreboard on localhost. Simulated players play a real recorded
game on the board at human speed, with hands hovering, sensor noise, the
odd illegal try put back, and take-backs; then the next game, forever.

By default the games are the 33 real Boardspace games built into the binary
(chosen for rule coverage: 37, 48 and 61 rings, long capture chains,
isolation, full boards, resignations), in order; --game plays one record
(SGF or JSON) instead, and --game random a game of random legal moves.

Watch it: subscribe to zertz/<board-id>/# on the broker (mosquitto_sub -t
'zertz/#' -v), or open the scoreboard (a board's page, the tournament view,
?overlay=1 for OBS). A killed sim resumes its game from
the journal when started again with the same --journal.

The arbiter console (/console on the scoreboard) logs operators in against
the embedded broker: --operator USER:PASSWORD adds such an account. Finished
games are listed on /results (CSV, zip of records); --results DIR keeps them.

Examples:
  zertzboard sim
  zertzboard sim --game mygame.sgf --speed 4 --exit-at-end
  zertzboard sim --game mygame.sgf --virtual --exit-at-end --http off   # on virtual time: the game in a second or so
  zertzboard sim --language pl --show
  zertzboard sim --operator arbiter:s3cret --results /tmp/results   # then open http://127.0.0.1:8080/console
  zertzboard sim --mqtt-listen 127.0.0.1:1884 --http off --board-id table-2
  zertzboard sim --mode tournament --time-control fischer:5m+5s
  zertzboard sim --vs-engine --engine-level 3 --show   # the engine plays player 1; its turns are carried out from the LEDs`

func runSim(args []string, stdout, stderr io.Writer) int {
	return runSimContext(context.Background(), args, stdout, stderr)
}

// runSimContext is runSim until ctx is done (for tests that run many
// boards in one process).
func runSimContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("sim", "[--game FILE] [--speed X] [--mqtt-listen ADDR] [--http ADDR] [--board-id ID] [--time-control TC] [--vs-engine [--engine-player P] [--engine-level L]] [--exit-at-end]", simAbout, stderr)
	game := fs.String("game", "", `play this record (SGF or JSON), or "random", instead of the built-in games`)
	speed := fs.Float64("speed", 1, "how fast the simulated players move (2 = twice human speed)")
	mqttListen := fs.String("mqtt-listen", "127.0.0.1:1883", "the embedded MQTT broker's TCP address (port 0 picks one)")
	wsListen := fs.String("ws-listen", "127.0.0.1:8083", `the embedded broker's WebSocket address, for browsers ("off" for none)`)
	brokerURL := fs.String("broker", "embedded", "an external broker's URL (tcp://, ssl://, ws://) instead of the embedded one")
	username := fs.String("username", "board", "the board's MQTT user name")
	password := fs.String("password", "", "the board's MQTT password (embedded broker: a random one by default)")
	httpAddr := fs.String("http", "127.0.0.1:8080", `the scoreboard's address ("off" for none)`)
	results := fs.String("results", "", "keep finished games in this directory (the scoreboard's results page; default: in memory)")
	operator := fs.String("operator", "", "USER:PASSWORD: an operator account on the embedded broker, for the arbiter console (/console)")
	boardID := fs.String("board-id", "sim", "the board's name in MQTT topics")
	exitAtEnd := fs.Bool("exit-at-end", false, "stop after the game, once every message is delivered")
	journalPath := fs.String("journal", "", `the journal file (default: a fresh one in a temporary directory; "off" for none)`)
	modeName := fs.String("mode", "casual", "casual or tournament")
	timeControl := fs.String("time-control", "none", "the game clocks: none, sudden:DUR or fischer:DUR+INC (e.g. sudden:25m, fischer:20m+10s)")
	analysis := fs.String("analysis", "auto", "live forced-win analysis on the scoreboard: on, off, or auto (on in casual mode, off in tournament)")
	seed := fs.Uint64("seed", 1, "seeds the players' behaviour and the sensor noise")
	settle := fs.Int64("settle", referee.DefaultSettleMS, "milliseconds the board must hold still before the referee counts it")
	scanHz := fs.Int("scan-hz", 200, "scans per second, 50 to 200 (many simulated boards on one machine: scan slower)")
	stallEvery := fs.Duration("stall-every", 0, "stall the scan for 150-600 ms about this often (e.g. 2s), as a starved Pi does, while the hands go on: the referee then infers turns and asks the players, who answer with the buttons (0: never)")
	vsFlag := fs.Bool("vs-engine", false, "play against the engine: the simulated person plays the record (their own turns once the engine leaves it) and the simulated hand carries out the engine's turns as the LEDs show them")
	enginePlayer := fs.Int("engine-player", 1, "with --vs-engine: the player the engine plays, 0 or 1")
	engineLevel := fs.Int("engine-level", search.DefaultLevel, "with --vs-engine: the engine's level, 1 (a beginner) to 10")
	show := fs.Bool("show", false, "draw the board in the terminal after every change")
	event := fs.String("event", "", "the tournament's name, for the games' records (SGF EV[]), at most 100 bytes")
	language := fs.String("language", "en", "the language of the status screen and of --show: en, de, fr, pl, ru, it, nl or es (MQTT stays English)")
	virtual := fs.Bool("virtual", false, "run the board and the players on virtual time, as fast as the CPU allows and the same on every run (for tests and quick checks; MQTT and the web page keep the wall clock)")
	verbose := fs.Bool("v", false, "log debug detail")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "zertzboard sim: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q", fs.Arg(0))
	}
	if err := boardid.Check(*boardID); err != nil {
		return fail("--board-id: %s", errText(err))
	}
	if settlepkg.Check(*settle) != nil {
		return fail("--settle %d: want %d to %d ms", *settle, settlepkg.MinMS, settlepkg.MaxMS)
	}
	if *scanHz < 50 || *scanHz > 200 {
		return fail("--scan-hz %d: want 50 to 200", *scanHz)
	}
	if *stallEvery != 0 && (*stallEvery < time.Second || *stallEvery > time.Hour) {
		return fail("--stall-every %s: want 0 (never) or 1s to 1h", *stallEvery)
	}
	if len(*event) > 100 || !utf8.ValidString(*event) || strings.ContainsFunc(*event, unicode.IsControl) {
		return fail("--event: want the event's name, at most 100 bytes of text")
	}
	if *speed <= 0 || *speed > 1000 {
		return fail("--speed %g: want more than 0 and at most 1000", *speed)
	}
	var play *controller.Play
	if *vsFlag {
		if *enginePlayer != 0 && *enginePlayer != 1 {
			return fail("--engine-player %d: want 0 or 1", *enginePlayer)
		}
		if *engineLevel < 1 || *engineLevel > search.MaxLevel {
			return fail("--engine-level %d: want 1 to %d", *engineLevel, search.MaxLevel)
		}
		if *stallEvery != 0 {
			return fail("--stall-every and --vs-engine do not go together: the simulated hand carries out the engine's turns step by step as the LEDs show them")
		}
		play = &controller.Play{Engine: *enginePlayer, Level: *engineLevel, Seed: *seed}
	}
	mode, err := referee.ParseMode(*modeName)
	if err != nil {
		return fail("--mode %q: want casual or tournament", *modeName)
	}
	lang, err := i18n.Parse(*language)
	if err != nil {
		return fail("--language: %s", errText(err))
	}
	control, err := clock.Parse(*timeControl)
	if err != nil {
		return fail("--time-control: %s", errText(err))
	}
	if *analysis != "auto" && *analysis != "on" && *analysis != "off" {
		return fail("--analysis %q: want auto, on or off", *analysis)
	}
	var users []broker.User
	if *operator != "" {
		name, pass, ok := strings.Cut(*operator, ":")
		if !ok || name == "" || pass == "" {
			return fail("--operator %q: want USER:PASSWORD", *operator)
		}
		users = append(users, broker.User{Name: name, Password: pass, Role: broker.RoleOperator})
	}
	games, note, err := table.Games(*game, *seed)
	if err != nil {
		return fail("--game: %s", errText(err))
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if note != "" {
		log.Info(note)
	}
	if *journalPath == "" {
		dir, err := os.MkdirTemp("", "zertzboard-sim-")
		if err != nil {
			return fail("%v", err)
		}
		defer os.RemoveAll(dir)
		*journalPath = filepath.Join(dir, "journal.jsonl")
	}

	tb, err := table.Open(table.Config{Games: games, Speed: *speed, SettleMS: *settle, ScanHz: *scanHz, Seed: *seed,
		StallEvery: *stallEvery, ExitAtEnd: *exitAtEnd, Virtual: *virtual, VsEngine: play != nil, EnginePlayer: *enginePlayer, Log: log})
	if err != nil {
		return fail("%v", err)
	}
	defer tb.Close()
	first := games[0]
	var term io.Writer
	if *show {
		term = stdout
	}
	d := &daemon{
		setting: struct{ listen, ws, http string }{"--mqtt-listen", "--ws-listen", "--http"},
		node: board.Options{BoardID: *boardID, Variant: first.Variant, First: first.First, Mode: mode, Players: first.Players,
			SettleMS: *settle, Rig: tb.Rig(), Calibration: tb.Calibration(), JournalPath: *journalPath, Logger: log, Terminal: term, OnFrame: tb.OnFrame, Language: lang, Event: *event,
			OnButton: tb.OnButton, Analysis: analysisOptions(*analysis, 0, 0, 0), Control: control, Play: play, Lockstep: tb.Lockstep()},
		broker: *brokerURL, listen: *mqttListen, ws: *wsListen, username: *username, password: *password,
		store: storeBeside(*journalPath), http: *httpAddr, results: *results, users: users, log: log, brokerLog: brokerLogger(stderr, *verbose),
		play: tb.Play, spawn: tb.Spawn,
		ready: func(mqttURL, httpURL string) {
			fmt.Fprintf(stdout, "zertzboard sim: board %q is playing %s\n  MQTT   %s  (topics zertz/%s/...; try: mosquitto_sub -h 127.0.0.1 -p %s -t 'zertz/#' -v)\n",
				*boardID, table.Describe(first), mqttURL, *boardID, portOf(mqttURL))
			if httpURL != "" {
				fmt.Fprintf(stdout, "  web    %s\n", httpURL)
			}
			fmt.Fprintf(stdout, "  journal %s\nPress Ctrl-C to stop.\n", *journalPath)
		},
	}
	if err := d.run(ctx); err != nil {
		fmt.Fprintf(stderr, "zertzboard sim: %v\n", err)
		return exitFault
	}
	return exitOK
}

// brokerLogger keeps the embedded broker's warnings, or everything with -v.
func brokerLogger(w io.Writer, verbose bool) *slog.Logger {
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})).With("part", "broker")
}

func portOf(url string) string {
	if i := strings.LastIndexByte(url, ':'); i >= 0 {
		return url[i+1:]
	}
	return "1883"
}
