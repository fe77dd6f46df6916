package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	settlepkg "github.com/zertzboard/zertzboard/settle"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/clock"
	cmdset "github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/controller"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/engine/search"
	"github.com/zertzboard/zertzboard/hardware/buttons"
	"github.com/zertzboard/zertzboard/hardware/open"
	timebase "github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/rig"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sim"
	"github.com/zertzboard/zertzboard/sim/players"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"sync/atomic"
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
	games, note, err := simGames(*game, *seed)
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

	w := wiring.Reference()
	bo := sim.DefaultBoardOpts
	bo.Seed = *seed
	simBoard := sim.NewBoard(w.Base, &bo)
	hw, err := sim.New(w, simBoard)
	if err != nil {
		return fail("%v", err)
	}
	cal, err := simCalibration(w, hw)
	if err != nil {
		return fail("calibrating the simulator: %v", err)
	}
	// On virtual time, the scan loop steps the lockstep clock, and the
	// players (participants) act between its scans.
	var ls *timebase.Lockstep
	ro := &open.Opts{Rate: physic.Frequency(*scanHz) * physic.Hertz}
	if *virtual {
		ls = timebase.NewLockstep(time.Unix(0, 0).UTC())
		ro.Clock = ls
	}
	r, err := open.Open(w, hw, ro)
	if err != nil {
		return fail("%v", err)
	}
	defer r.Close()
	first := games[0]
	seen := newFrameWatch()
	var h hands = wallHands{seen}
	presses := make(chan buttons.Event, 8)
	var term io.Writer
	if *show {
		term = stdout
	}
	cfg := board.Config{
		Setting: board.Settings{Listen: "--mqtt-listen", WebSocket: "--ws-listen", HTTP: "--http"},
		Options: board.Options{BoardID: *boardID, Variant: first.Variant, First: first.First, Mode: mode, Players: first.Players,
			SettleMS: *settle, Rig: r, Calibration: cal, JournalPath: *journalPath, Logger: log, Terminal: term, OnFrame: seen.frame, Language: lang, Event: *event,
			OnButton: func(e buttons.Event) {
				select {
				case presses <- e:
				default:
				}
			},
			Analysis: analyst.ForSetting(*analysis, 0, 0, 0), Control: control, Play: play, Lockstep: ls},
		Broker: *brokerURL, Listen: *mqttListen, WebSocket: *wsListen, Username: *username, Password: *password,
		Store: board.StoreBeside(*journalPath), HTTP: *httpAddr, Results: *results, Users: users, BrokerLog: brokerLogger(stderr, *verbose),
		Alongside: func(ctx context.Context, n *board.Node) error {
			p := &simPlayers{board: simBoard, wiring: w, games: games, speed: *speed, settleMS: *settle, seed: *seed, exitAtEnd: *exitAtEnd, log: log, seen: seen,
				hw: hw, presses: presses, stallEvery: *stallEvery, hands: h}
			if ls != nil {
				p.virtual = ls
			}
			if play != nil {
				lr, err := newLEDReader(w, hw.LEDs)
				if err != nil {
					return err
				}
				p.vs = &vsEngine{player: play.Engine, leds: lr}
			}
			return p.run(ctx, n)
		},
		Ready: func(mqttURL, httpURL string) {
			fmt.Fprintf(stdout, "zertzboard sim: board %q is playing %s\n  MQTT   %s  (topics zertz/%s/...; try: mosquitto_sub -h 127.0.0.1 -p %s -t 'zertz/#' -v)\n",
				*boardID, describe(first), mqttURL, *boardID, portOf(mqttURL))
			if httpURL != "" {
				fmt.Fprintf(stdout, "  web    %s\n", httpURL)
			}
			fmt.Fprintf(stdout, "  journal %s\nPress Ctrl-C to stop.\n", *journalPath)
		},
	}
	if ls != nil {
		// The players' goroutine is the lockstep clock's first
		// participant; h is set on it before play runs there.
		cfg.Spawn = func(f func()) {
			ls.Go(func(pp *timebase.Participant) {
				h = stepHands{pp}
				f()
			})
		}
	}
	if err := board.Run(ctx, cfg); err != nil {
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

func describe(r *record.Record) string {
	s := fmt.Sprintf("a %s-ring game of %s", strings.TrimSuffix(r.Variant, "b"), plural(len(r.Turns), "turn"))
	if r.Players[0] != "" || r.Players[1] != "" {
		s += fmt.Sprintf(" (%s v %s)", r.Players[0], r.Players[1])
	}
	return s
}

func portOf(url string) string {
	if i := strings.LastIndexByte(url, ':'); i >= 0 {
		return url[i+1:]
	}
	return "1883"
}

// simGames returns the games to play: one record, a random game, or the
// built-in games.
func simGames(path string, seed uint64) ([]*record.Record, string, error) {
	if path == "random" {
		return []*record.Record{randomGame(seed)}, "playing a game of random legal moves on 37 rings", nil
	}
	if path != "" {
		rec, err := record.ReadFile(path)
		if err != nil {
			return nil, "", err
		}
		if _, err := rec.Replay(); err != nil {
			return nil, "", fmt.Errorf("%s: %w", path, err)
		}
		return []*record.Record{rec}, "", nil
	}
	var games []*record.Record
	for _, name := range samples.BuiltinNames() {
		data, err := fs.ReadFile(samples.Builtin(), name)
		if err != nil {
			return nil, "", err
		}
		rec, err := record.Read(bytes.NewReader(data))
		if err != nil {
			return nil, "", fmt.Errorf("built-in game %s: %w", name, err)
		}
		if _, err := rec.Replay(); err != nil {
			return nil, "", fmt.Errorf("built-in game %s: %w", name, err)
		}
		games = append(games, rec)
	}
	return games, fmt.Sprintf("playing the %d built-in Boardspace games", len(games)), nil
}

// randomGame plays random legal turns on 37 rings to the end.
func randomGame(seed uint64) *record.Record {
	rng := rand.New(rand.NewPCG(seed, 37))
	p := engine.NewPosition(engine.MustStandardBoard("37"), engine.Standard, 0)
	rec := &record.Record{Variant: "37", Players: [2]string{"random", "chance"}}
	for !p.Result().Over && len(rec.Turns) < 200 {
		turns := p.LegalTurns(nil)
		t := turns[rng.IntN(len(turns))]
		p = p.MustPlay(t)
		rec.Turns = append(rec.Turns, t)
	}
	return rec
}

// simCalibration calibrates the simulated base in memory, on a fake clock,
// as "calibrate --sim" does. It opens its own virtual hardware around the
// same board (ports, once opened, stay claimed) so the live rig can open
// the real one afterwards.
func simCalibration(w *wiring.Wiring, live *sim.Hardware) (*classify.Calibration, error) {
	r, err := rig.Open(rig.Options{Wiring: w, Sim: true, Board: live.Board})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cal, err := r.Calibrate(rig.CalibrateOpts{Frames: 40})
	live.Board.SetAll(engine.NoRing)
	return cal, err
}

// simPlayers play the games on the simulated base. They are closed-loop:
// every board they mean the referee to see, they hold until the scan has
// seen it settled, however slow the machine, and only then go on; between
// those, they keep the wall clock's human pace, scaled by --speed.
type simPlayers struct {
	board     *sim.Board
	wiring    *wiring.Wiring
	games     []*record.Record
	speed     float64
	settleMS  int64
	seed      uint64
	exitAtEnd bool
	log       *slog.Logger
	seen      *frameWatch
	// table says whether the arbiter has paused the game, and whether it
	// is over (ended off the board: a flag fall, a declared result); nil
	// in tests that drive play alone.
	table func() (paused, over bool)
	// hw and presses: the virtual buttons, and the presses the board
	// carried out (node's OnButton), for answering the referee's
	// questions; nil in tests that drive play alone.
	hw      *sim.Hardware
	presses chan buttons.Event
	// stallEvery: the scan stalls for 150-600 ms about this often, and
	// misses what the hands do meanwhile; virtual is the board's virtual
	// clock the stalls pass on (nil: the wall clock).
	stallEvery time.Duration
	virtual    timebase.Clock
	// game is the record being played, as the players remember it;
	// begun counts the turns of it they have begun (answers come from
	// those), from playedBase, the turns before the current play call.
	game       atomic.Pointer[engine.Game]
	begun      atomic.Int64
	playedBase int
	// vs, if not nil, plays against the engine (--vs-engine).
	vs *vsEngine
	// leftOpen is the last question the players leave open (none of its
	// options is what they played).
	leftOpen atomic.Int64
	// hands is the players' time: the wall clock, or the lockstep
	// clock's (--virtual).
	hands hands
}

// hands is the simulated players' time, for the goroutine that holds it:
// the wall clock (wallHands), or a participant of the lockstep clock
// (stepHands: sim --virtual), on which the board's scan loop steps the
// players between its scans.
type hands interface {
	Now() time.Time
	// Sleep waits d (not at all for d ≤ 0), or until ctx is done.
	Sleep(ctx context.Context, d time.Duration) error
	// Frame waits until the scan has taken another frame, at most d.
	Frame(ctx context.Context, d time.Duration) error
	// Go runs f on a goroutine of its own, with hands of its own.
	Go(f func(hands))
}

// wallHands is the wall clock: the players keep a human pace in real
// time while the board scans on its own.
type wallHands struct{ seen *frameWatch }

func (wallHands) Now() time.Time                                     { return time.Now() }
func (wallHands) Sleep(ctx context.Context, d time.Duration) error   { return sleepCtx(ctx, d) }
func (h wallHands) Frame(ctx context.Context, d time.Duration) error { return h.seen.wait(ctx, d) }
func (h wallHands) Go(f func(hands))                                 { go f(h) }

// stepHands is a participant of the lockstep clock: its waits end at one
// of the scan loop's steps, and while it acts nothing else runs.
type stepHands struct{ p *timebase.Participant }

func (h stepHands) Now() time.Time { return h.p.Now() }

func (h stepHands) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	return stepped(ctx, h.p.Sleep(d))
}

// Frame waits for the next step: the scan loop has referee'd the frame
// before it.
func (h stepHands) Frame(ctx context.Context, _ time.Duration) error {
	return stepped(ctx, h.p.Next())
}

func (h stepHands) Go(f func(hands)) {
	h.p.Go(func(q *timebase.Participant) { f(stepHands{q}) })
}

// stepped is a lockstep wait's outcome for the players: a closed clock
// (the board stopped) ends them as a cancelled ctx does.
func stepped(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if errors.Is(err, timebase.ErrClosed) {
		return context.Canceled
	}
	return err
}

// errEndedOffBoard stops the players' hands: the game ended off the board.
var errEndedOffBoard = errors.New("the game ended off the board")

// stepTimeout bounds a wait for the scan to see a board: generous, and
// shorter at higher speed (but never under a few seconds, since a loaded
// machine is slow at any speed).
func (p *simPlayers) stepTimeout() time.Duration {
	return max(5*time.Second, time.Duration(float64(60*time.Second)/p.speed))
}

func (p *simPlayers) run(ctx context.Context, n *board.Node) error {
	if p.hw != nil && p.presses != nil {
		p.hands.Go(func(h hands) { p.answer(ctx, n, h) })
	}
	p.table = func() (bool, bool) {
		st := n.Controller().State()
		switch st.Result {
		case referee.EndTime, referee.EndResignation, referee.EndAdjudication, referee.EndDraw:
			return st.Clock.Paused, true // ended off the board; an end on it is the last turn's
		}
		return st.Clock.Paused, false
	}
	for i := 0; ; i++ {
		rec := p.games[i%len(p.games)]
		rep, err := rec.Replay()
		if err != nil {
			return err
		}
		// Resume the journal's game if it is this record's beginning;
		// otherwise start this record afresh.
		st := n.Controller().State()
		k := 0
		switch {
		case st.Variant == rec.Variant && st.Turn <= len(rec.Turns) && st.Phase != engine.PhaseOver && isPrefix(st.Moves, rec):
			k = st.Turn
			if k > 0 {
				p.log.Info("resuming the game in the journal", "turn", k)
			}
		default:
			if st.Phase == engine.PhaseOver && i == 0 {
				// The journal's game is over: the board shows its end
				// until the players clear it for the next game.
				if err := p.clearFinished(ctx, n); err != nil {
					return err
				}
			}
			if err := n.Do(cmdset.NewGame{Variant: rec.Variant, First: rec.First}); err != nil {
				return err
			}
		}
		if err := n.Do(cmdset.SetPlayers{Players: rec.Players}); err != nil {
			return err
		}
		p.game.Store(rep.Game)
		p.begun.Store(int64(k))
		from := rep.Game.PositionAfter(k)
		m, err := p.wiring.Mount(from.Board())
		if err != nil {
			return err
		}
		p.place(m, []byte(from.Cells()))
		p.log.Info("players start", "game", describe(rec), "from turn", k+1)
		if p.vs != nil {
			err = p.playVsEngine(ctx, n, m, from, rec, k, p.seed+uint64(i))
		} else {
			p.playedBase = k
			err = p.play(ctx, m, from, rec.Turns[k:], p.seed+uint64(i))
		}
		if errors.Is(err, errEndedOffBoard) {
			p.log.Info("the game ended off the board; the players stop", "result", n.Controller().State().Result)
		} else if err != nil {
			return err
		}
		if p.exitAtEnd {
			if p.vs != nil {
				return p.awaitEnd(ctx, n, 1<<30) // until the game is over
			}
			return p.awaitEnd(ctx, n, rep.Game.Len())
		}
		if err := p.hands.Sleep(ctx, time.Duration(float64(5*time.Second)/p.speed)); err != nil {
			return err
		}
		// The players clear the board for the next game.
		p.place(m, []byte(strings.Repeat(".", len(from.Cells()))))
		if err := p.hands.Sleep(ctx, time.Duration(float64(2*time.Second)/p.speed)); err != nil {
			return err
		}
	}
}

// clearFinished sets the journal's finished game on the board, lets the
// referee see it, and has the players clear it.
func (p *simPlayers) clearFinished(ctx context.Context, n *board.Node) error {
	st := n.Controller().State()
	m, err := p.wiring.Mount(n.Controller().Board())
	if err != nil {
		return err
	}
	p.log.Info("the journal's game is over; the players clear the board", "result", st.Result, "turns", st.Turn)
	p.place(m, []byte(st.Cells))
	if err := p.seen.await(ctx, p.hands, st.Cells, p.settleMS, p.stepTimeout()); err != nil {
		p.log.Warn("the scan did not see the finished game's board", "err", err)
	}
	empty := strings.Repeat(".", len(st.Cells))
	p.place(m, []byte(empty))
	if err := p.seen.await(ctx, p.hands, empty, p.settleMS, p.stepTimeout()); err != nil {
		p.log.Warn("the scan did not see the board cleared", "err", err)
	}
	return nil
}

func isPrefix(moves []string, rec *record.Record) bool {
	b, _, err := rec.Board()
	if err != nil || len(moves) > len(rec.Turns) {
		return false
	}
	for i, m := range moves {
		if engine.FormatTurn(b, rec.Turns[i]) != m {
			return false
		}
	}
	return true
}

// place sets the base from game-board cells; '?' (a hand over a ring)
// leaves the magnet where it was.
func (p *simPlayers) place(m *wiring.Mount, cells []byte) {
	for s := range m.Cells {
		if m.Cells[s] == engine.NoCell {
			p.board.Set(engine.Cell(s), engine.NoRing)
		}
	}
	for c, s := range m.Sockets {
		if cells[c] != '?' {
			p.board.Set(s, engine.Content(cells[c]))
		}
	}
}

// play moves the pieces as the physical generator says. A board the
// generator holds for the referee to see (twice the settle time or more)
// is held until the scan has seen it settled; the pace in between follows
// the wall clock, scaled by the speed, restarted after each such wait, so
// a slow machine stretches the game but never skips what must be seen.
func (p *simPlayers) play(ctx context.Context, m *wiring.Mount, from engine.Position, turns []engine.Turn, seed uint64) error {
	opt := playerOptions(seed, p.speed, p.settleMS, p.stallEvery)
	base := p.playedBase
	opt.Begin = func(i int) { p.begun.Store(int64(base + i + 1)) }
	if p.vs != nil {
		// Claimed rings come off with their turn: the engine's hand
		// starts from the official board.
		opt.Lag = 0
	}
	h := p.hands
	start := h.Now()
	last, lastAt, prevMS := "", int64(0), int64(-1)
	_, err := players.Play(from, turns, opt, func(ms int64, cells []byte) error {
		if gap := ms - prevMS; p.stallEvery > 0 && p.hw != nil && prevMS >= 0 && gap > opt.ScanMS {
			// The generator dropped the frames of a stall: the board's
			// scan stalls as long, from when the stall began, while the
			// hands go on (the scan then misses what they did).
			if err := h.Sleep(ctx, start.Add(p.wall(prevMS)).Sub(h.Now())); err != nil {
				return err
			}
			p.hw.Timing.Stall(p.wall(gap), p.virtual)
		}
		prevMS = ms
		if string(cells) == last {
			return nil
		}
		if err := h.Sleep(ctx, start.Add(p.wall(ms)).Sub(h.Now())); err != nil {
			return err
		}
		waited, err := p.awaitTable(ctx)
		if err != nil {
			return err
		}
		start = start.Add(waited)
		if ms-lastAt >= 2*opt.SettleMS-opt.ScanMS && last != "" && strings.IndexByte(last, '?') < 0 {
			// The board the generator held: wait until the referee saw it.
			if err := p.seen.await(ctx, h, last, p.settleMS, p.stepTimeout()); err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				p.log.Warn("the scan did not see a board the players held; going on", "err", err)
			}
			start = h.Now().Add(-p.wall(ms))
		}
		last, lastAt = string(cells), ms
		p.place(m, cells)
		return nil
	})
	return err
}

// playerOptions is how the simulated players move the pieces at a speed:
// the physical generator's options, its time running speed times faster
// than the wall clock (wall ms = generator ms / speed), every board meant
// to be seen held for the settle time in wall time.
func playerOptions(seed uint64, speed float64, settleMS int64, stallEvery time.Duration) players.Options {
	opt := players.DefaultOptions
	opt.Seed, opt.Speed = seed, speed
	opt.SettleMS = int64(float64(settleMS) * speed)
	opt.HopMS = int64(float64(referee.DefaultHopMS) * speed)
	if stallEvery > 0 {
		// In wall-clock time, as a starved Pi stalls: the generator's
		// time runs speed times faster.
		opt.Stalls = float64(opt.ScanMS) / (float64(stallEvery.Milliseconds()) * speed)
		opt.StallMS = int64(600 * speed)
	}
	return opt
}

// answer answers the referee's questions as the players do: from what
// they played (the record), with the buttons: take-back steps to the
// option, confirm answers. It runs beside the hands until ctx is done.
func (p *simPlayers) answer(ctx context.Context, n *board.Node, h hands) {
	done := 0
	for ctx.Err() == nil {
		q, ok := n.Controller().Asking()
		g := p.game.Load()
		if !ok || q.ID == done || g == nil {
			if h.Frame(ctx, time.Second) != nil {
				return
			}
			continue
		}
		played := int(p.begun.Load())
		if played <= 0 || played > g.Len() {
			played = g.Len()
		}
		opt, known := players.AnswerSoFar(g.Start().Board(), g, played, q.About, q.Turn, q.Cell, q.Options, q.Provisional)
		if !known {
			// None of the options is what they played: they leave the
			// question open, and the referee follows the board on.
			p.log.Warn("the players played none of the referee's options; they leave the question open", "question", q.Text)
			done = q.ID
			p.leftOpen.Store(int64(q.ID))
			continue
		}
		p.log.Info("the players answer the referee", "question", q.ID, "option", q.Options[opt])
		// The screen says which option confirm would answer: step from
		// there (a press that did not register is tried again).
		steps := opt
		if id, at := n.Offered(); id == q.ID {
			steps = (opt - at + len(q.Options)) % len(q.Options)
		}
		ok = true
		for i := 0; i < steps && ok; i++ {
			ok = p.press(ctx, h, p.wiring.Buttons.Takeback, buttons.Takeback)
		}
		if ok && p.press(ctx, h, p.wiring.Buttons.Confirm, buttons.Confirm) {
			done = q.ID
		}
	}
}

// press presses a button until the board has carried the press out, then
// releases it and pauses as a hand does (long enough for the release to
// be seen, twice the buttons' debounce time). It reports false if the
// press did not register in time (ctx done, or a stalled machine: the
// caller tries the whole answer again).
func (p *simPlayers) press(ctx context.Context, h hands, pin string, b buttons.Button) bool {
	gp := p.hw.Pin(pin)
	if gp == nil {
		return false
	}
	for drained := false; !drained; {
		select {
		case <-p.presses:
		default:
			drained = true
		}
	}
	gp.Out(gpio.Low)
	defer func() {
		gp.Out(gpio.High)
		_ = h.Sleep(ctx, max(4*buttons.DefaultOpts.Debounce, time.Duration(float64(300*time.Millisecond)/p.speed)))
	}()
	deadline := h.Now().Add(p.stepTimeout())
	for {
		select {
		case e := <-p.presses:
			if e.Button == b {
				return true
			}
			continue
		default:
		}
		if !h.Now().Before(deadline) {
			p.log.Warn("a button press did not register", "button", b)
			return false
		}
		if h.Frame(ctx, buttons.DefaultOpts.Poll) != nil {
			return false
		}
	}
}

// awaitTable keeps the players' hands off the board while the arbiter has
// paused the game, as players at a table do, and stops them when the
// game has ended off the board. The pause does not count against the
// generator's pace: the hands go on where they stopped.
func (p *simPlayers) awaitTable(ctx context.Context) (waited time.Duration, err error) {
	if p.table == nil {
		return 0, nil
	}
	paused, over := p.table()
	if over {
		return 0, errEndedOffBoard
	}
	if !paused {
		return 0, nil
	}
	p.log.Info("the arbiter paused the game; the players wait")
	from := p.hands.Now()
	for paused && !over {
		if err := p.hands.Frame(ctx, 50*time.Millisecond); err != nil {
			return p.hands.Now().Sub(from), err
		}
		paused, over = p.table()
	}
	if over {
		return p.hands.Now().Sub(from), errEndedOffBoard
	}
	p.log.Info("the game resumes")
	return p.hands.Now().Sub(from), nil
}

// wall is the wall-clock time of generator time ms.
func (p *simPlayers) wall(ms int64) time.Duration {
	return time.Duration(float64(ms) * float64(time.Millisecond) / p.speed)
}

// awaitEnd waits until the referee has committed the whole game.
func (p *simPlayers) awaitEnd(ctx context.Context, n *board.Node, turns int) error {
	deadline := p.hands.Now().Add(p.stepTimeout() + 10*time.Second)
	for p.hands.Now().Before(deadline) {
		// The whole game, or an end off the board (a flag fall, the
		// arbiter) before it; and no question left that the players
		// mean to answer (e.g. the colour of the last turn's marble).
		st := n.Controller().State()
		q, asking := n.Controller().Asking()
		if asking && (p.hw == nil || int64(q.ID) == p.leftOpen.Load()) {
			asking = false // nobody to answer it, or the players leave it open
		}
		if (st.Turn >= turns || st.Phase == engine.PhaseOver) && !asking {
			p.log.Info("the game is over; stopping", "turns", st.Turn, "result", st.Result)
			return nil
		}
		if err := p.hands.Frame(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
	if q, asking := n.Controller().Asking(); asking {
		return fmt.Errorf("the referee saw %d turns of %d, and asks %q", n.Controller().State().Turn, turns, q.Text)
	}
	return fmt.Errorf("the referee saw %d turns of %d", n.Controller().State().Turn, turns)
}

// frameWatch follows the frames the scan classifies (node's OnFrame), so
// the simulated players can wait until a board has been seen settled.
type frameWatch struct {
	mu    sync.Mutex
	cells []byte
	since int64 // scan time the frames first showed cells
	last  int64 // scan time of the latest frame
	prev  int64 // scan time of the frame before it
	n     int   // frames that showed cells
	tick  chan struct{}
}

func newFrameWatch() *frameWatch { return &frameWatch{tick: make(chan struct{}, 1)} }

// frame is board.Options.OnFrame: it runs on the scan goroutine, before the
// controller sees the frame, and must be quick.
func (w *frameWatch) frame(ms int64, cells []byte) {
	w.mu.Lock()
	if string(cells) != string(w.cells) {
		w.cells = append(w.cells[:0], cells...)
		w.since, w.n = ms, 0
	}
	w.prev, w.last = w.last, ms
	w.n++
	w.mu.Unlock()
	select {
	case w.tick <- struct{}{}:
	default:
	}
}

// await waits until the scan has shown cells long enough for the settle
// stage to count them (the settle time and settle.MinScans frames, the
// stage's own rule) and one frame more, so the controller has refereed
// the frame that settled them; or until the timeout passes.
func (w *frameWatch) await(ctx context.Context, h hands, cells string, settleMS int64, timeout time.Duration) error {
	deadline := h.Now().Add(timeout)
	for {
		w.mu.Lock()
		ok := string(w.cells) == cells && w.n > settlepkg.MinScans && w.prev-w.since >= settleMS
		w.mu.Unlock()
		if ok {
			return nil
		}
		left := deadline.Sub(h.Now())
		if left <= 0 {
			return fmt.Errorf("the board was not seen settled within %s", timeout)
		}
		if err := h.Frame(ctx, min(left, 100*time.Millisecond)); err != nil {
			return err
		}
	}
}

// wait returns at the next frame, after d, or when ctx is done.
func (w *frameWatch) wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-w.tick:
	case <-t.C:
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
