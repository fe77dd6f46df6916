package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/node"
	"github.com/zertzboard/zertzboard/physical"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sim"
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

Examples:
  zertzboard sim
  zertzboard sim --game mygame.sgf --speed 4 --exit-at-end
  zertzboard sim --mqtt-listen 127.0.0.1:1884 --http off --board-id table-2`

func runSim(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("sim", "[--game FILE] [--speed X] [--mqtt-listen ADDR] [--http ADDR] [--board-id ID] [--exit-at-end]", simAbout, stderr)
	game := fs.String("game", "", `play this record (SGF or JSON), or "random", instead of the built-in games`)
	speed := fs.Float64("speed", 1, "how fast the simulated players move (2 = twice human speed)")
	mqttListen := fs.String("mqtt-listen", "127.0.0.1:1883", "the embedded MQTT broker's TCP address (port 0 picks one)")
	wsListen := fs.String("ws-listen", "127.0.0.1:8083", `the embedded broker's WebSocket address, for browsers ("off" for none)`)
	brokerURL := fs.String("broker", "embedded", "an external broker's URL (tcp://, ssl://, ws://) instead of the embedded one")
	username := fs.String("username", "board", "the board's MQTT user name")
	password := fs.String("password", "", "the board's MQTT password (embedded broker: a random one by default)")
	httpAddr := fs.String("http", "127.0.0.1:8080", `the scoreboard's address ("off" for none)`)
	boardID := fs.String("board-id", "sim", "the board's name in MQTT topics")
	exitAtEnd := fs.Bool("exit-at-end", false, "stop after the game, once every message is delivered")
	journalPath := fs.String("journal", "", "the journal file (default: a fresh one in a temporary directory)")
	modeName := fs.String("mode", "casual", "casual or tournament")
	seed := fs.Uint64("seed", 1, "seeds the players' behaviour and the sensor noise")
	settle := fs.Int64("settle", referee.DefaultSettleMS, "milliseconds the board must hold still before the referee counts it")
	show := fs.Bool("show", false, "draw the board in the terminal after every change")
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
		return fail("--board-id: %v", err)
	}
	if *settle < 30 || *settle > 2000 {
		return fail("--settle %d: want 30 to 2000 ms", *settle)
	}
	if *speed <= 0 || *speed > 1000 {
		return fail("--speed %g: want more than 0 and at most 1000", *speed)
	}
	mode, err := referee.ParseMode(*modeName)
	if err != nil {
		return fail("%v", err)
	}
	games, note, err := simGames(*game, *seed)
	if err != nil {
		return fail("%v", err)
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
	board := sim.NewBoard(w.Base, &sim.BoardOpts{Bits: 12, Levels: sim.DefaultLevels, Spread: 40, Noise: 4, Crosstalk: 0.005, Seed: *seed})
	hw, err := sim.New(w, board)
	if err != nil {
		return fail("%v", err)
	}
	cal, err := simCalibration(w, hw)
	if err != nil {
		return fail("calibrating the simulator: %v", err)
	}
	r, err := open.Open(w, hw, nil)
	if err != nil {
		return fail("%v", err)
	}
	defer r.Close()
	first := games[0]
	var term io.Writer
	if *show {
		term = stdout
	}
	d := &daemon{
		setting: struct{ listen, ws, http string }{"--mqtt-listen", "--ws-listen", "--http"},
		node: node.Options{BoardID: *boardID, Variant: first.Variant, First: first.First, Mode: mode, Players: first.Players,
			SettleMS: *settle, Rig: r, Calibration: cal, JournalPath: *journalPath, Logger: log, Terminal: term},
		broker: *brokerURL, listen: *mqttListen, ws: *wsListen, username: *username, password: *password,
		store: storeBeside(*journalPath), http: *httpAddr, log: log, brokerLog: brokerLogger(stderr, *verbose),
		play: func(ctx context.Context, n *node.Node) error {
			p := &simPlayers{board: board, wiring: w, games: games, speed: *speed, settleMS: *settle, seed: *seed, exitAtEnd: *exitAtEnd, log: log}
			return p.run(ctx, n)
		},
		ready: func(mqttURL, httpURL string) {
			fmt.Fprintf(stdout, "zertzboard sim: board %q is playing %s\n  MQTT   %s  (topics zertz/%s/...; try: mosquitto_sub -h 127.0.0.1 -p %s -t 'zertz/#' -v)\n",
				*boardID, describe(first), mqttURL, *boardID, portOf(mqttURL))
			if httpURL != "" {
				fmt.Fprintf(stdout, "  web    %s\n", httpURL)
			}
			fmt.Fprintf(stdout, "  journal %s\nPress Ctrl-C to stop.\n", *journalPath)
		},
	}
	if err := d.run(context.Background()); err != nil {
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
	s := fmt.Sprintf("a %s-ring game of %d turns", strings.TrimSuffix(r.Variant, "b"), len(r.Turns))
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
	r, err := openSimRig(w, live.Board)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cal, err := calibrate(r, 40, nopInput{}, io.Discard)
	live.Board.SetAll(engine.NoRing)
	return cal, err
}

// simPlayers play the games on the simulated base, paced to the clock.
type simPlayers struct {
	board     *sim.Board
	wiring    *wiring.Wiring
	games     []*record.Record
	speed     float64
	settleMS  int64
	seed      uint64
	exitAtEnd bool
	log       *slog.Logger
}

func (p *simPlayers) run(ctx context.Context, n *node.Node) error {
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
		if st.Variant == rec.Variant && st.Turn <= len(rec.Turns) && st.Phase != "over" && isPrefix(st.Moves, rec) {
			k = st.Turn
			if k > 0 {
				p.log.Info("resuming the game in the journal", "turn", k)
			}
		} else if err := n.Do(node.Command{Name: "new-game", Variant: rec.Variant, First: rec.First}); err != nil {
			return err
		}
		if err := n.Do(node.Command{Name: "set-players", Players: rec.Players}); err != nil {
			return err
		}
		from := rep.Game.PositionAfter(k)
		m, err := p.wiring.Mount(from.Board())
		if err != nil {
			return err
		}
		p.place(m, []byte(from.Cells()))
		p.log.Info("players start", "game", describe(rec), "from turn", k+1)
		if err := p.play(ctx, m, from, rec.Turns[k:], p.seed+uint64(i)); err != nil {
			return err
		}
		if p.exitAtEnd {
			return p.awaitEnd(ctx, n, rep.Game.Len())
		}
		if err := sleepCtx(ctx, time.Duration(float64(5*time.Second)/p.speed)); err != nil {
			return err
		}
	}
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

// play moves the pieces as the physical generator says, at wall-clock
// pace. The referee's settle time is real, so the players' holds stretch
// with the speed to stay visible to it.
func (p *simPlayers) play(ctx context.Context, m *wiring.Mount, from engine.Position, turns []engine.Turn, seed uint64) error {
	opt := physical.DefaultOptions
	opt.Seed, opt.Speed = seed, p.speed
	opt.SettleMS = int64(float64(p.settleMS) * p.speed)
	start := time.Now()
	last := ""
	_, err := physical.Play(from, turns, opt, func(ms int64, cells []byte) error {
		if string(cells) == last {
			return nil
		}
		last = string(cells)
		if err := sleepCtx(ctx, time.Until(start.Add(time.Duration(float64(ms)*float64(time.Millisecond)/p.speed)))); err != nil {
			return err
		}
		p.place(m, cells)
		return nil
	})
	return err
}

// awaitEnd waits until the referee has committed the whole game.
func (p *simPlayers) awaitEnd(ctx context.Context, n *node.Node, turns int) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if st := n.Controller().State(); st.Turn >= turns {
			p.log.Info("the game is over; stopping", "turns", st.Turn, "result", st.Result)
			return nil
		}
		if err := sleepCtx(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("the referee saw %d turns of %d", n.Controller().State().Turn, turns)
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
