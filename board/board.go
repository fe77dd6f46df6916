// Package board runs one board: the scan loop reads the sensors, the
// classifier and the mount turn counts into the game board's cells and
// queues them; on its own goroutine the controller referees them and
// journals (fsync) and broadcasts every committed change, so that neither
// the SD card nor the network can delay a scan; and the display shows the
// guidance on the LEDs and the screen.
// The same code runs on a Raspberry Pi and on the simulator; only the
// buses differ.
//
// Layer: board. May import: base, game, drivers, sensors, services,
// presentation, config, simulator, rig, board.
package board

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/zertzboard/zertzboard/settle"
	"image/color"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zertzboard/zertzboard/analyst"
	"github.com/zertzboard/zertzboard/clock"
	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/controller"
	"github.com/zertzboard/zertzboard/display"
	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/buttons"
	"github.com/zertzboard/zertzboard/hardware/open"
	"github.com/zertzboard/zertzboard/hardware/scan"
	"github.com/zertzboard/zertzboard/hardware/screen"
	timebase "github.com/zertzboard/zertzboard/hardware/timebase"
	"github.com/zertzboard/zertzboard/hardware/wiring"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/journal"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sensors/classify"
	"github.com/zertzboard/zertzboard/sensors/health"
	"github.com/zertzboard/zertzboard/sensors/pipeline"
	"github.com/zertzboard/zertzboard/wire"
)

// Command is a command from the arbiter (MQTT's cmd/ topics) for the
// board's loop (Options.Commands), and who awaits its outcome.
type Command struct {
	command.Envelope
	// Done, if not nil, receives the outcome once the command is handled.
	Done func(error)
}

// Options sets up a board.
type Options struct {
	BoardID     string
	Variant     string
	First       int
	Mode        referee.Mode
	Players     [2]string
	SettleMS    int64
	Rig         *open.Rig
	Calibration *classify.Calibration
	// JournalPath is the journal file; "" keeps none, and JournalOff
	// (--journal off) keeps none and says so on the screen. A journal
	// that cannot be opened or written, or whose damage cannot be moved
	// aside, stops New: a board must not run a tournament game it would
	// lose in a crash without being told to.
	JournalPath string
	Publisher   controller.Publisher
	Commands    <-chan Command
	Logger      *slog.Logger
	// Terminal, if not nil, gets a text view of the board after every
	// change (the simulator's status screen).
	Terminal io.Writer
	// OnFrame, if not nil, sees every classified frame of the game board
	// (e.g. to record a frame log), on the referee's goroutine, just
	// before the referee. It must not keep cells.
	OnFrame func(ms int64, cells []byte)
	// OnButton, if not nil, sees every button press once the board has
	// carried it out (e.g. for simulated players waiting for their press
	// to register), on the buttons' goroutine.
	OnButton func(buttons.Event)
	// Analysis, if not nil, turns on live forced-win analysis (see
	// controller.Config.Analysis).
	Analysis *analyst.Options
	// Control is the time control of new games (the zero Control: none).
	Control clock.Control
	// Event names the tournament for the games' records ("" for none).
	Event string
	// Language is the status screen's and the terminal view's language;
	// "" is English. The wire (MQTT, journal, records) stays English.
	Language i18n.Lang
	// Play, if not nil, has the engine play one side of new games
	// (controller.Config.Play).
	Play *controller.Play
	// Lockstep, if not nil, runs the board on virtual time, as fast as
	// the CPU allows and the same on every run (the simulator's tests,
	// sim --virtual): Run scans, referees, reads the buttons and draws
	// the LEDs and the screen on its own goroutine, one scan period at a
	// time, and steps the clock (its participants: the simulated
	// players) before each scan. The rig must run on the same clock.
	// Commands (MQTT) are still taken as they come.
	Lockstep *timebase.Lockstep
}

// JournalOff as Options.JournalPath runs without a journal, saying so.
const JournalOff = "off"

// Node is a running board.
type Node struct {
	opt   Options
	log   *slog.Logger
	ctrl  *controller.Controller
	jrnl  *journal.Journal
	pipe  atomic.Pointer[pipeline.Pipeline]
	disp  *screens
	start time.Time // the first scan's time; only the scan loop uses it
	// nowMS is the time of the latest frame the referee has taken, for
	// commands from other goroutines: a command never runs ahead of the
	// frames still queued before it.
	nowMS atomic.Int64
	// gen counts remounts; a frame scanned for an earlier mount (another
	// game board) is dropped when it reaches the referee.
	gen atomic.Uint64
	// armedAt is when new game was pressed, awaiting confirm; askIdx is
	// the colour the buttons offer while the referee asks. Only the
	// buttons goroutine uses them.
	armedAt time.Time
	askIdx  int
	askID   int // the question askIdx is about
	// offered is askID<<8 | askIdx, for Offered (read off the buttons'
	// goroutine).
	offered atomic.Int64
	// onScan, in tests, sees every scan on the scan goroutine.
	onScan func(*scan.Frame)
	// confirmed is the official class of every base socket while the
	// board holds still in the official position (Unreadable off the game
	// board), or nil: the referee's goroutine sets it, the scan goroutine
	// lets the sensors' baselines track drift against it.
	confirmed atomic.Pointer[[]engine.Content]
}

// New opens the journal, resumes its game or starts one, and mounts the
// game board on the base.
func New(opt Options) (*Node, error) {
	if opt.Rig == nil || opt.Calibration == nil {
		return nil, errors.New("node: a rig and a calibration are required")
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	n := &Node{opt: opt, log: opt.Logger}
	var warning string
	var damage *journal.Damage
	var resumed *journal.Game // what the journal's Open replayed
	switch opt.JournalPath {
	case "":
	case JournalOff:
		warning = "warn.no-journal"
		n.log.Warn("no journal (--journal off): a crash will lose the game")
	default:
		j, g, err := journal.Open(opt.JournalPath)
		if err != nil {
			return nil, fmt.Errorf("node: the journal %s cannot be used (%w); fix it, or start without a journal with --journal off", opt.JournalPath, err)
		}
		n.jrnl = j
		if damage = j.Damage(); damage != nil {
			warning = "warn.journal-damaged"
			// Each fact its own attribute: the log clips long values.
			n.log.Error("journal damaged", "path", damage.Path, "line", damage.Line, "reason", damage.Reason, "bad_lines", damage.Lines,
				"older_games_only", damage.Older, "entries_resumed", damage.Kept, "turns_resumed", damage.Turns,
				"lines_not_resumed", damage.Dropped, "moved_to", damage.Moved)
		}
		if g != nil {
			n.log.Info("journal holds a game in progress", "path", opt.JournalPath, "variant", g.Variant, "turns", g.Game.Len())
		}
		resumed = g
	}
	n.disp = newScreens(opt.Rig, opt.Terminal, n.log, opt.Language)
	if warning != "" {
		n.disp.warn = n.disp.lang.T(warning)
	}
	ctrl, err := controller.New(controller.Config{
		BoardID: opt.BoardID, Variant: opt.Variant, First: opt.First, Mode: opt.Mode, Players: opt.Players,
		SettleMS: opt.SettleMS, Journal: n.jrnl, Resume: resumed, OnJournalFault: n.disp.journalFault, Publisher: opt.Publisher, Display: n.disp, Logger: n.log,
		Analysis: opt.Analysis, Control: opt.Control, Event: opt.Event, Play: opt.Play,
	})
	if err != nil {
		n.Close()
		return nil, err
	}
	n.ctrl = ctrl
	n.disp.clock = ctrl.Clock
	if p := opt.Publisher; p != nil && warning != "" {
		var body referee.Body = referee.Fault{Reason: warning}
		if damage != nil {
			body = damage
		}
		p.Event(referee.Event{T: 0, Body: body})
	}
	if err := n.remount(); err != nil {
		n.Close()
		return nil, err
	}
	return n, nil
}

// remount places the current game board on the base, with a sensor
// pipeline that projects onto it.
func (n *Node) remount() error {
	m, err := n.opt.Rig.Wiring.Mount(n.ctrl.Board())
	if err != nil {
		return fmt.Errorf("node: %w", err)
	}
	p, err := pipeline.New(n.opt.Rig.Scanner, &pipeline.Opts{Mount: m, Calibration: n.opt.Calibration})
	if err != nil {
		return fmt.Errorf("node: %w", err)
	}
	n.gen.Add(1)
	n.pipe.Store(p)
	n.disp.setMount(m)
	return nil
}

// Controller returns the board's controller.
func (n *Node) Controller() *controller.Controller { return n.ctrl }

// Run scans, referees and shows until ctx is done, then darkens the LEDs.
func (n *Node) Run(ctx context.Context) error {
	if n.opt.Lockstep != nil {
		return n.runLockstep(ctx)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	go func() { defer wg.Done(); n.disp.run(ctx) }()
	if b := n.opt.Rig.Buttons; b != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = b.Run(ctx, func(e buttons.Event) { n.button(e) })
		}()
	}
	if n.opt.Commands != nil {
		wg.Add(1)
		go func() { defer wg.Done(); n.serveCommands(ctx) }()
	}
	// The referee, the journal's fsync and the broadcast run on their own
	// goroutine: a stalled SD card or network never delays a scan.
	q := newFrameQueue(queueFrames, n.opt.Rig.Wiring.Base.Len())
	refereeDone := make(chan struct{})
	go func() { defer close(refereeDone); n.referee(ctx, q) }()
	err := n.scan(ctx, q)
	cancel()
	<-refereeDone
	wg.Wait()
	n.darken()
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// serveCommands carries out the commands from outside (MQTT) until ctx
// is done.
func (n *Node) serveCommands(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case c := <-n.opt.Commands:
			err := n.FromArbiter(c.Envelope)
			if c.Done != nil {
				c.Done(err)
			}
		}
	}
}

// darken turns the LEDs off.
func (n *Node) darken() {
	if h := n.opt.Rig.LEDs; h != nil {
		if herr := h.Halt(); herr != nil {
			n.log.Error("darkening the LEDs", "err", herr)
		}
	}
}

// runLockstep is Run on the lockstep clock (Options.Lockstep): each scan
// period, the clock's participants act (the simulated players move
// pieces, press buttons) at that instant, then the board is scanned, the
// frame refereed (journalled, published), the buttons read and the
// screens drawn, all on this goroutine, in that order; while the engine
// thinks over its turn (play against the engine), the time stands still
// until its turn is shown. Nothing else here waits for the wall clock;
// the scan's own code and the referee's are the ones Run uses. It
// returns when ctx is done (e.g. the players stop), and closes the clock.
func (n *Node) runLockstep(ctx context.Context) error {
	ls := n.opt.Lockstep
	defer ls.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	if n.opt.Commands != nil {
		wg.Add(1)
		go func() { defer wg.Done(); n.serveCommands(ctx) }()
	}
	sc := n.opt.Rig.Scanner
	q := newFrameQueue(queueFrames, n.opt.Rig.Wiring.Base.Len())
	handle, scanned := n.refereeing(), n.scanned(q)
	f := &scan.Frame{Raw: make([]uint16, sc.Len())}
	var presses []buttons.Event
	start := ls.Now()
	nextCount := start.Add(clockRefresh)
	var err error
	for k := time.Duration(1); ctx.Err() == nil; k++ {
		t := start.Add(k * sc.Period())
		ls.Step(t)
		if ctx.Err() != nil {
			break
		}
		f.T = ls.Now()
		if err = sc.ScanOnce(f.Raw); err != nil {
			break
		}
		f.Duration = ls.Now().Sub(f.T)
		if err = scanned(f); err != nil {
			break
		}
		f.Seq++
		for q.pop(handle) {
		}
		if b := n.opt.Rig.Buttons; b != nil {
			presses = b.Poll(f.T, presses[:0])
			for _, e := range presses {
				n.button(e)
			}
		}
		n.disp.step(f.T, &nextCount)
		// The engine thinks in no virtual time: its search runs on its
		// own goroutine, and the board waits for its turn to be shown
		// (the timer only looks again should a search end without news).
		for n.disp.thinking() && n.thinking() && ctx.Err() == nil {
			t := time.NewTimer(50 * time.Millisecond)
			select {
			case <-ctx.Done():
			case <-n.disp.dirty:
				n.disp.draw()
			case <-t.C:
			}
			t.Stop()
		}
	}
	cancel()
	ls.Close() // the players' waits end
	wg.Wait()
	n.darken()
	return err
}

// scan is the hot loop: the pipeline classifies and projects each scan
// onto the game board, and the frame is queued for the referee. It never
// waits for the referee, the journal or the network.
func (n *Node) scan(ctx context.Context, q *frameQueue) error {
	return n.opt.Rig.Scanner.Run(ctx, n.scanned(q))
}

// scanned returns what the scan loop does with each scan: classify and
// project it, and queue the frame for the referee.
func (n *Node) scanned(q *frameQueue) func(*scan.Frame) error {
	var faults []health.Fault
	var lastPipe *pipeline.Pipeline
	first := true
	return func(sf *scan.Frame) error {
		if first {
			n.start, first = sf.T, false
		}
		gen := n.gen.Load()
		pipe := n.pipe.Load()
		if pipe != lastPipe {
			// A new game board: the sensors' baselines carry over.
			if lastPipe != nil {
				pipe.AdoptBaselines(lastPipe)
			}
			lastPipe = pipe
		}
		f, err := pipe.Process(sf.T, sf.Raw)
		if err != nil {
			return err
		}
		var changed []health.Fault
		if f.Faults != nil && !sameFaults(f.Faults, faults) {
			faults, changed = f.Faults, f.Faults
		}
		if c := n.confirmed.Load(); c != nil {
			pipe.Track(*c)
		}
		ms := sf.T.Sub(n.start).Milliseconds()
		q.push(ms, gen, sf.T, f.Cells, changed)
		if n.onScan != nil {
			n.onScan(sf)
		}
		return nil
	}
}

// referee takes the queued frames in order: faults reported, the frame
// recorded (OnFrame) and refereed, every committed change journalled and
// published. When ctx is done it finishes the frames already queued.
func (n *Node) referee(ctx context.Context, q *frameQueue) {
	handle := n.refereeing()
	var dropped uint64
	for {
		for q.pop(handle) {
		}
		if d := q.Dropped(); d != dropped {
			n.log.Warn("the referee fell behind the scan; frames dropped", "dropped", d-dropped)
			dropped = d
		}
		select {
		case <-ctx.Done():
			for q.pop(handle) {
			}
			return
		case <-q.ready:
		}
	}
}

// refereeing returns what the referee does with each queued frame.
func (n *Node) refereeing() func(queued) {
	settleMS := n.opt.SettleMS
	if settleMS <= 0 {
		settleMS = settle.DefaultMS
	}
	var last []byte
	var since int64
	var scans int
	return func(e queued) {
		if e.faults != nil {
			n.reportFaults(e.t, e.faults)
		}
		if e.gen != n.gen.Load() {
			return // scanned for the previous game board
		}
		n.nowMS.Store(e.ms)
		if n.opt.OnFrame != nil {
			n.opt.OnFrame(e.ms, e.cells)
		}
		if err := n.ctrl.Frame(e.ms, e.cells); err != nil {
			n.log.Error("frame", "err", err)
		}
		// The board confirms the sensors once it has held still for the
		// settle time in the official position.
		// The settle stage's rule: the settle time and MinScans frames.
		if !bytes.Equal(e.cells, last) {
			last, since, scans = append(last[:0], e.cells...), e.ms, 1
			n.confirmed.Store(nil)
		} else if scans++; n.confirmed.Load() == nil && e.ms-since >= settleMS && scans >= settle.MinScans {
			n.confirm(e.cells)
		}
	}
}

// confirm sets the confirmed classes when cells, the settled board, is the
// official position.
func (n *Node) confirm(cells []byte) {
	st := n.ctrl.State()
	if st.Cells != string(cells) {
		return
	}
	m, err := n.opt.Rig.Wiring.Mount(n.ctrl.Board())
	if err != nil || len(m.Sockets) != len(cells) {
		return
	}
	base := make([]engine.Content, m.Base.Len())
	for i := range base {
		base[i] = engine.Unreadable
	}
	for c, s := range m.Sockets {
		base[s] = engine.Content(cells[c])
	}
	n.confirmed.Store(&base)
}

func sameFaults(a, b []health.Fault) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].String() != b[i].String() {
			return false
		}
	}
	return true
}

// maxFaultParts bounds the faults a fault event says in other languages
// (a message read from MQTT takes at most 64 parts); Reason lists them all.
const maxFaultParts = 32

func (n *Node) reportFaults(t time.Time, fs []health.Fault) {
	var lines, shown []string
	var parts []referee.Message
	for _, f := range fs {
		lines = append(lines, f.String())
		shown = append(shown, n.disp.lang.T("fault."+f.Kind.String(), f.Label))
		if len(parts) < maxFaultParts {
			parts = append(parts, referee.Msg("fault."+f.Kind.String(), f.Label))
		}
		n.log.Warn("sensor fault", "fault", f.String())
	}
	n.disp.setFaults(shown)
	if p := n.opt.Publisher; p != nil {
		reason, msg := "sensors healthy", referee.Msg("fault.healthy")
		if len(lines) > 0 {
			reason, msg = "sensor faults: "+strings.Join(lines, "; "), referee.Msg("fault.list", parts)
		}
		msg.Text = reason
		p.Event(referee.Event{T: t.Sub(n.start).Milliseconds(), Body: referee.Fault{Reason: reason, ReasonMsg: &msg}})
	}
}

// SetFault shows a fault from outside the sensors on the status screen, or
// clears it with "", e.g. the MQTT store falling back to memory on a full
// disk. The caller reports it on "events"; refereeing goes on.
func (n *Node) SetFault(text string) {
	n.disp.mu.Lock()
	n.disp.system = text
	n.disp.mu.Unlock()
	n.disp.poke()
	if text != "" {
		n.log.Warn("fault", "reason", text)
	}
}

// confirmWindow is how long a new-game press waits for confirm.
const confirmWindow = 5 * time.Second

// button turns a press into a command. New game needs confirm within a few
// seconds while a game is under way, so that a stray press never wipes one
// out; the new game's first player is the other one than last time.
func (n *Node) button(e buttons.Event) {
	if f := n.opt.OnButton; f != nil {
		defer f(e)
	}
	defer func() { n.offered.Store(int64(n.askID)<<8 | int64(n.askIdx)) }()
	if q, ok := n.ctrl.Asking(); ok && q.ID != n.askID {
		n.askID, n.askIdx = q.ID, 0 // a new question: start at its first option
	}
	switch e.Button {
	case buttons.NewGame:
		st := n.ctrl.State()
		if st.Turn == 0 || st.Phase == engine.PhaseOver {
			n.newGameByButton()
			return
		}
		n.armedAt = e.T
		n.disp.setNotice(n.disp.lang.T("notice.confirm-new-game"))
	case buttons.Confirm:
		if !n.armedAt.IsZero() && e.T.Sub(n.armedAt) <= confirmWindow {
			n.newGameByButton()
		} else if q, ok := n.ctrl.Asking(); ok {
			// The referee asked which colour a marble was, or which
			// turns were played: confirm answers with the option offered.
			opt := n.askIdx % len(q.Options)
			n.askIdx = 0
			if err := n.ctrl.Answer(n.nowMS.Load(), q.ID, opt); err != nil {
				n.log.Error("answer", "err", err)
			}
		} else if n.armedAt.IsZero() && n.ctrl.State().Play != nil {
			// Against the engine, confirm asks for a hint; pressed again,
			// it shows the engine's last turn, and so on.
			if err := n.Do(command.Hint{}); err != nil {
				n.log.Info("hint button", "err", err) // e.g. on the engine's turn, which is lit already
			}
		}
		n.armedAt = time.Time{}
		n.disp.setNotice("")
	case buttons.Takeback:
		if q, ok := n.ctrl.Asking(); ok {
			// While the referee asks, take-back offers the next option.
			n.askIdx = (n.askIdx + 1) % len(q.Options)
			n.disp.setNotice(n.questionNotice(q, n.askIdx))
			return
		}
		// In tournament mode the button asks the arbiter; in casual mode
		// it demands the take-back at once.
		var cmd command.Command = command.Takeback{}
		if n.opt.Mode == referee.Tournament {
			cmd = command.TakebackRequest{}
		}
		if err := n.Do(cmd); err != nil {
			n.log.Warn("take-back button", "err", err)
		}
	}
}

// Offered returns the question the screen offers an answer to and the
// option confirm would answer: what a player reads on the screen.
func (n *Node) Offered() (question, option int) {
	v := n.offered.Load()
	return int(v >> 8), int(v & 0xff)
}

// questionNotice says the option the confirm button would answer: a
// colour, a socket, or a line of play in notation.
func (n *Node) questionNotice(q referee.Question, i int) string {
	if q.About == "colour" {
		c, err := engine.ParseColor(q.Options[i])
		if err == nil {
			return n.disp.lang.T("notice.which-colour", q.Cell, i18n.Key("colour."+c.String()))
		}
	}
	if q.Options[i] == referee.OtherRing {
		// The last option of a page: the next ones.
		return n.disp.lang.T("notice.which-cell-other", i+1, len(q.Options))
	}
	if q.About == "cell" {
		return n.disp.lang.T("notice.which-cell", i+1, len(q.Options), q.Options[i])
	}
	// The screen has 18 columns: "i/n " and as much of the line as fits.
	label := []rune(q.Options[i])
	if len(label) > 14 {
		label = append(label[:12], '.', '.')
	}
	return n.disp.lang.T("notice.which-turns", i+1, len(q.Options), string(label))
}

func (n *Node) newGameByButton() {
	n.armedAt = time.Time{}
	n.disp.setNotice("")
	if err := n.Do(command.NewGame{First: 1 - n.ctrl.First()}); err != nil {
		n.log.Error("new-game button", "err", err)
	}
}

// Do carries out a command of the board's own: its buttons', the
// simulator's.
func (n *Node) Do(c command.Command) error {
	return n.after(c, n.ctrl.Command(n.nowMS.Load(), c))
}

// FromArbiter carries out the arbiter's command: logged and journalled
// as the arbiter's before it is carried out.
func (n *Node) FromArbiter(e command.Envelope) error {
	return n.after(e.Command, n.ctrl.FromArbiter(n.nowMS.Load(), e))
}

// after follows command c carried out with outcome err: a new game mounts
// the board's new variant.
func (n *Node) after(c command.Command, err error) error {
	if _, ok := c.(command.NewGame); ok && err == nil {
		return n.remount()
	}
	return err
}

// Close stops the analysis and closes the journal.
func (n *Node) Close() error {
	if n.ctrl != nil {
		n.ctrl.Close()
	}
	if n.jrnl != nil {
		return n.jrnl.Close()
	}
	return nil
}

// screens shows guidance on the LEDs, the status screen and the terminal.
// Writing them takes milliseconds of bus time, so it happens on its own
// goroutine, always with the latest guidance: the frame loop never waits.
type screens struct {
	rig    *open.Rig
	term   io.Writer
	log    *slog.Logger
	mu     sync.Mutex
	g      referee.Guidance
	s      wire.State
	m      *wiring.Mount
	fault  []string
	system string // a fault outside the sensors (SetFault), shown first
	notice string // overrides the status line, e.g. a button awaiting confirm
	warn   string // a standing warning (a damaged journal), shown with the faults
	jfault string // a failed journal write, until the journal is whole again
	lang   i18n.Lang
	dirty  chan struct{}
	leds   []color.NRGBA
	// clock, if set, reads the clocks as of the latest frame: while one
	// runs the screen counts down between states.
	clock func() wire.Clock
}

// clockRefresh is how often the screen redraws a running clock.
const clockRefresh = 250 * time.Millisecond

func newScreens(r *open.Rig, term io.Writer, log *slog.Logger, lang i18n.Lang) *screens {
	if lang == "" {
		lang = i18n.EN
	}
	return &screens{rig: r, term: term, log: log, lang: lang, dirty: make(chan struct{}, 1)}
}

// Show implements controller.Display.
func (d *screens) Show(g referee.Guidance, s wire.State) {
	d.mu.Lock()
	d.g, d.s = g, s
	d.mu.Unlock()
	d.poke()
}

func (d *screens) setMount(m *wiring.Mount) {
	d.mu.Lock()
	d.m = m
	d.mu.Unlock()
	d.poke()
}

func (d *screens) setNotice(text string) {
	d.mu.Lock()
	d.notice = text
	d.mu.Unlock()
	d.poke()
}

// journalFault shows a failed journal write (err), or clears it (nil).
func (d *screens) journalFault(err error) {
	d.mu.Lock()
	d.jfault = ""
	if err != nil {
		d.jfault = d.lang.T("warn.journal-write")
	}
	d.mu.Unlock()
	d.poke()
}

// systemFaults is the faults from outside the sensors, first: the
// standing warning, a failed journal write, SetFault's. d.mu is held.
func (d *screens) systemFaults(faults []string) []string {
	var sys []string
	for _, f := range []string{d.warn, d.jfault, d.system} {
		if f != "" {
			sys = append(sys, f)
		}
	}
	if len(sys) == 0 {
		return faults
	}
	return append(sys, faults...)
}

func (d *screens) setFaults(f []string) {
	d.mu.Lock()
	d.fault = f
	d.mu.Unlock()
	d.poke()
}

// countDown redraws the screen with the clocks as of now, while one runs.
func (d *screens) countDown() {
	d.mu.Lock()
	s, g, m, notice := d.s, d.g, d.m, d.notice
	faults := d.systemFaults(d.fault)
	d.mu.Unlock()
	sc := d.rig.Screen
	if sc == nil || d.clock == nil || s.Clock.Running == nil || g.Hints == nil || m == nil {
		return
	}
	s.Clock = d.clock()
	if notice != "" {
		g.Status, g.Parts = notice, nil
	}
	st := display.ScreenStatus(s, g, faults)
	st.Lang = d.lang
	if err := sc.Show(display.StatusLines(st, screen.Columns)); err != nil {
		d.log.Error("screen", "err", err)
	}
}

func (d *screens) poke() {
	select {
	case d.dirty <- struct{}{}:
	default:
	}
}

func (d *screens) run(ctx context.Context) {
	tick := time.NewTicker(clockRefresh)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.dirty:
			d.draw()
		case <-tick.C:
			d.countDown()
		}
	}
}

// draw shows the latest guidance on the LEDs, the screen and the
// terminal.
func (d *screens) draw() {
	d.mu.Lock()
	g, s, m := d.g, d.s, d.m
	faults := d.systemFaults(d.fault)
	if d.notice != "" {
		g.Status, g.Parts = d.notice, nil
	}
	d.mu.Unlock()
	if g.Hints == nil || m == nil {
		return
	}
	if l := d.rig.LEDs; l != nil {
		d.leds = display.LEDColors(d.leds, m.Base.Len(), m.Sockets, g, nil)
		for i, c := range d.leds {
			l.Set(i, c)
		}
		if err := l.Show(); err != nil {
			d.log.Error("LEDs", "err", err)
		}
	}
	if sc := d.rig.Screen; sc != nil {
		st := display.ScreenStatus(s, g, faults)
		st.Lang = d.lang
		if err := sc.Show(display.StatusLines(st, screen.Columns)); err != nil {
			d.log.Error("screen", "err", err)
		}
	}
	if d.term != nil {
		fmt.Fprintf(d.term, "\n%s", display.TerminalIn(d.lang, s, m.Game, g))
	}
}

// thinking reports whether the engine is thinking over its turn.
func (n *Node) thinking() bool {
	p := n.ctrl.State().Play
	return p != nil && p.Thinking
}

// thinking reports whether the latest state shown has the engine
// thinking over its turn.
func (d *screens) thinking() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.s.Play != nil && d.s.Play.Thinking
}

// step is one scan period of the screens in lockstep: the latest
// guidance drawn if it changed, the clocks counted down when due.
func (d *screens) step(now time.Time, next *time.Time) {
	select {
	case <-d.dirty:
		d.draw()
	default:
	}
	if !now.Before(*next) {
		d.countDown()
		*next = now.Add(clockRefresh)
	}
}
