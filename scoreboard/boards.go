package scoreboard

import (
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/zertzboard/zertzboard/hall"
	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/internal/boardid"
	"github.com/zertzboard/zertzboard/scoreboard/console"
	"github.com/zertzboard/zertzboard/scoreboard/results"
	"github.com/zertzboard/zertzboard/scoreboard/stream"
	"github.com/zertzboard/zertzboard/scoreboard/view"
)

// Limits on what the scoreboard keeps from the broker.
const (
	maxPayload = 1 << 20 // bytes; a 61-ring state is a few kB
	maxBoards  = 1000
)

// Options configure a Server. The zero value is usable.
type Options struct {
	// Prefix is the root of the boards' topics, ending in "/"; default
	// "zertz/". Board IDs are the level below it.
	Prefix string
	// ClientBuffer is how many updates may wait for one browser; a
	// browser further behind is dropped (its EventSource reconnects and
	// gets the latest view). Default 32.
	ClientBuffer int
	// WriteTimeout bounds one write to a browser. Default 10s.
	WriteTimeout time.Duration
	// Heartbeat is the interval of SSE comments that keep idle streams
	// open through proxies and find dead browsers. Default 15s.
	Heartbeat time.Duration
	// MaxViewers bounds the viewers' event streams (/events), all
	// together; further ones get 503. Default HTTPLimits.Total minus
	// ConsoleReserve, so that viewers never take the connections the
	// arbiter console needs.
	MaxViewers int
	// Halls are the halls of an event whose hall brokers bridge to the
	// broker the scoreboard follows: hall name → its boards' IDs. The
	// scoreboard reads each hall's bridge status (hall.BridgeStatusTopic,
	// "1" up, "0" down) and shows that hall's boards as "hall
	// unreachable" while it is down: their last state stays, their clocks
	// stop, and a game the board finishes meanwhile shows once the bridge
	// is back.
	Halls  map[string][]string
	Logger *slog.Logger // nil discards
}

// Server is the scoreboard: it keeps the latest state, status and notice
// of every board it hears of (through Handle), renders the views once per
// change and pushes them to browsers over server-sent events.
type Server struct {
	opts Options
	log  *slog.Logger

	mu     sync.Mutex
	boards map[string]*boardView
	hub    *stream.Hub              // the viewers' streams (package stream); shares mu
	index  *stream.Frame            // the tournament view
	langs  map[i18n.Lang]*langViews // views in the other languages streams use (lang.go)
	closed bool
	done   chan struct{} // closed by Close
	// changed is closed and replaced once each message is handled and
	// each time a language's last stream goes (changes).
	changed chan struct{}
	now     func() time.Time

	hallOf   map[string]string // board → hall (Options.Halls)
	hallDown map[string]bool   // halls whose bridge says "0"
	hallBy   map[string]string // bridge status topic → hall

	obs *observer        // the console's view of the boards (observe.go)
	res *results.Store   // finished games (package results)
	ops *console.Console // the arbiter console (package console); nil until EnableConsole
	vw  *viewer          // the game viewer's searches (viewer.go)
}

// boardView is one board's latest data and rendered view.
type boardView struct {
	view.Board
	own   string // the board's own status: "online", "offline" or ""
	raw   []byte // the state payload as received
	frame *stream.Frame
}

// New returns a Server with no boards yet.
func New(opts Options) *Server {
	if opts.Prefix == "" {
		opts.Prefix = "zertz/"
	}
	if opts.ClientBuffer <= 0 {
		opts.ClientBuffer = 32
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = 10 * time.Second
	}
	if opts.MaxViewers <= 0 {
		opts.MaxViewers = HTTPLimits.Total - ConsoleReserve
	}
	if opts.Heartbeat <= 0 {
		opts.Heartbeat = 15 * time.Second
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{opts: opts, log: log, boards: map[string]*boardView{}, done: make(chan struct{}), changed: make(chan struct{}), now: time.Now,
		hallOf: map[string]string{}, hallDown: map[string]bool{}, hallBy: map[string]string{}}
	s.hub = stream.NewHub(&s.mu, stream.HubOptions{Buffer: opts.ClientBuffer, WriteTimeout: opts.WriteTimeout, Heartbeat: opts.Heartbeat,
		Now: func() time.Time { return s.now() }, Left: s.leftLocked, Logger: log})
	for h, ids := range opts.Halls {
		s.hallBy[hall.BridgeStatusTopic(h)] = h
		for _, id := range ids {
			s.hallOf[id] = h
		}
	}
	s.initOps()
	s.vw = newViewer()
	s.index = s.renderIndexLocked()
	return s
}

// Prefix is the topic prefix, e.g. "zertz/".
func (s *Server) Prefix() string { return s.opts.Prefix }

// Filters are the MQTT subscriptions the scoreboard needs.
func (s *Server) Filters() []string {
	p := s.opts.Prefix
	f := []string{p + "+/state", p + "+/status", p + "+/events", p + "+/moves", p + "+/record"}
	var halls []string
	for topic := range s.hallBy {
		halls = append(halls, topic)
	}
	sort.Strings(halls)
	return append(f, halls...)
}

// StatusUnreachable is a board's status while its hall's bridge is down.
const StatusUnreachable = view.StatusUnreachable

// hallStatus takes a hall's bridge status: "0" marks its boards
// unreachable, "1" (or the status cleared) shows their own status again.
func (s *Server) hallStatus(h string, payload []byte) {
	if !s.setHallStatus(h, strings.TrimSpace(string(payload)) == "0") {
		return
	}
	s.obs.mu.Lock() // the console's rows show it too
	s.obs.changedLocked()
	s.obs.mu.Unlock()
}

// unreachableBoards are the boards whose hall's bridge is down.
func (s *Server) unreachableBoards() map[string]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	down := map[string]bool{}
	for id, h := range s.hallOf {
		if s.hallDown[h] {
			down[id] = true
		}
	}
	return down
}

// setHallStatus records a hall's bridge status, renders its boards' views
// again and reports whether it changed.
func (s *Server) setHallStatus(h string, down bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.hallDown[h] == down {
		return false
	}
	s.hallDown[h] = down
	s.log.Info("scoreboard: a hall's bridge", "hall", h, "up", !down)
	var changed []string
	for id, bv := range s.boards {
		if s.hallOf[id] != h {
			continue
		}
		if st := s.statusLocked(id, bv.own); st != bv.Status {
			bv.Status = st
			bv.frame = s.hub.NewFrameLocked(bv.frame, bv.seq(), view.BoardTree(bv.Board))
			s.broadcastLocked(id, bv.frame)
			changed = append(changed, id)
		}
	}
	if len(changed) == 0 {
		return true
	}
	s.index = s.renderIndexLocked()
	s.broadcastLocked("", s.index)
	for i, id := range changed {
		s.translateLocked(id, i == len(changed)-1)
	}
	return true
}

// statusLocked is what board id shows: StatusUnreachable while its hall's
// bridge is down, else its own status.
func (s *Server) statusLocked(id, own string) string {
	if h, ok := s.hallOf[id]; ok && s.hallDown[h] {
		return StatusUnreachable
	}
	return own
}

// Changes returns a channel closed at the next change: once the message
// being handled (or the next) has had all its effects, or a language's
// views are dropped. Whoever waits for the boards to show something (a
// test, a program embedding the scoreboard) takes the channel, checks,
// and waits on it if not yet.
func (s *Server) Changes() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// signal wakes those waiting on changes.
func (s *Server) signal() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signalLocked()
}

func (s *Server) signalLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Handle takes one MQTT message. Topics other than a board's state,
// status, events and moves are ignored, as are malformed payloads. It is
// safe for concurrent use and never blocks on browsers.
func (s *Server) Handle(topic string, payload []byte) {
	defer s.signal()
	if h, ok := s.hallBy[topic]; ok {
		s.hallStatus(h, payload)
		return
	}
	rest, ok := strings.CutPrefix(topic, s.opts.Prefix)
	if !ok {
		return
	}
	id, kind, ok := strings.Cut(rest, "/")
	if !ok || !boardid.Valid(id) || len(payload) > maxPayload {
		return
	}
	switch kind {
	case "state", "status", "events", "moves", "record":
	default:
		return
	}
	// Decode once, outside the lock, for the views and for the console
	// and the results (observe.go); junk changes nothing.
	m, err := decodeMessage(kind, payload)
	if err != nil {
		s.log.Debug("scoreboard: bad message", "board", id, "kind", kind, "err", err)
		return
	}
	s.obs.observeDecoded(id, kind, payload, &m)
	if kind == "record" {
		return
	}
	if kind == "state" && m.state == nil {
		s.forget(id) // its retained state was cleared: the board is gone
		return
	}
	var status string
	if kind == "status" && m.statusOK {
		// The first word is online or offline; what follows it
		// ("online command-path-failed") is the console's business.
		status, _, _ = strings.Cut(m.status, " ")
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	bv := s.boards[id]
	if bv == nil {
		if kind != "state" && kind != "status" {
			return // a board is known by its state or status
		}
		if len(s.boards) >= maxBoards {
			s.log.Warn("scoreboard: too many boards; ignoring a new one", "board", id)
			return
		}
		bv = &boardView{Board: view.Board{ID: id, Status: s.statusLocked(id, "")}}
		s.boards[id] = bv
	}
	changed, indexChanged := s.updateLocked(bv, id, kind, &m, status, payload)
	if !changed {
		return
	}
	bv.frame = s.hub.NewFrameLocked(bv.frame, bv.seq(), view.BoardTree(bv.Board))
	s.broadcastLocked(id, bv.frame)
	if indexChanged {
		s.index = s.renderIndexLocked()
		s.broadcastLocked("", s.index)
	}
	s.translateLocked(id, indexChanged)
}

// updateLocked applies one decoded message m of kind to the board's view
// bv: its state, its status (the board's own word, status), the notice of
// its events. It reports whether the view changed, and whether the
// tournament index did too.
func (s *Server) updateLocked(bv *boardView, id, kind string, m *message, status string, payload []byte) (changed, indexChanged bool) {
	st, ev := m.state, m.ev
	switch kind {
	case "state":
		if bv.Notice != nil && (bv.State == nil || bv.Notice.Seq != st.Seq) {
			bv.Notice = nil
		}
		bv.State, bv.raw = st, append([]byte(nil), payload...)
		bv.Clock, bv.Note = &st.Clock, st.ResultNote
		indexChanged = true
	case "status":
		bv.own = status
		if st := s.statusLocked(id, status); st != bv.Status {
			bv.Status = st
		} else {
			return false, false
		}
		indexChanged = true
	case "moves":
		// A committed turn ends whatever was pending; the state follows.
		if bv.Notice == nil {
			return false, false
		}
		bv.Notice = nil
	case "events":
		var seq uint64
		if bv.State != nil {
			seq = bv.State.Seq
		}
		switch ev.Event {
		case "pending", "illegal", "touch-move", "missed-capture", "takeback-demand", "takeback", "fault":
			bv.Notice = &view.Notice{Seq: seq, Kind: ev.Event, Body: ev.NoticeBody}
		case "restored":
			if bv.Notice == nil {
				return false, false
			}
			bv.Notice = nil
		default:
			return false, false // forced-capture and game-over are in the state
		}
	}
	return true, indexChanged
}

// forget drops a board: its viewers see the waiting view.
func (s *Server) forget(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.boards[id] == nil {
		return
	}
	delete(s.boards, id)
	s.broadcastLocked(id, s.currentLocked(id))
	s.index = s.renderIndexLocked()
	s.broadcastLocked("", s.index)
	s.translateLocked(id, true)
}

func (bv *boardView) seq() uint64 {
	if bv.State == nil {
		return 0
	}
	return bv.State.Seq
}

// waitingFrame is the view of a board not seen (yet): made on demand,
// never patched.
func (s *Server) waitingFrame(board string, l i18n.Lang) *stream.Frame {
	return s.hub.WaitingFrame(view.RenderBoard(view.Board{ID: board, Lang: l}))
}

// broadcastLocked queues f for the English streams of board ("" is the
// tournament view).
func (s *Server) broadcastLocked(board string, f *stream.Frame) {
	s.hub.BroadcastLocked(stream.Topic{View: board}, f)
}

// subscribe registers a stream of board in English and returns it with
// the current view, or nil after Close.
func (s *Server) subscribe(board string) (*stream.Client, *stream.Frame) {
	return s.subscribeLang(board, "")
}

// currentLocked is the view of board now ("" for the tournament).
func (s *Server) currentLocked(board string) *stream.Frame {
	if board == "" {
		return s.index
	}
	if bv := s.boards[board]; bv != nil && bv.frame != nil {
		return bv.frame
	}
	return s.waitingFrame(board, "")
}

// Current returns the rendered view of board ("" for the tournament
// view) and the seq of the state it shows.
func (s *Server) Current(board string) (html string, seq uint64) {
	html, seq, _ = s.current(board)
	return html, seq
}

// current is Current, and whether the board is known ("" always is).
func (s *Server) current(board string) (html string, seq uint64, known bool) {
	f, known := s.currentFrame(board)
	return f.HTML, f.Seq, known
}

// currentFrame is the current view of board, and whether the board is
// known ("" always is).
func (s *Server) currentFrame(board string) (*stream.Frame, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.currentLocked(board), board == "" || s.boards[board] != nil
}

// State returns the latest state payload of board as received, or nil.
func (s *Server) State(board string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if bv := s.boards[board]; bv != nil {
		return bv.raw
	}
	return nil
}

// Viewers is the number of connected browser streams.
func (s *Server) Viewers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hub.ViewersLocked()
}

// Dropped is the number of viewers dropped for falling behind.
func (s *Server) Dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hub.DroppedLocked()
}

// Close ends every browser stream; later Handle calls are ignored and new
// streams are refused. Call it before http.Server.Shutdown, which waits
// for streams to end.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	close(s.done)
	s.obs.close()
	s.hub.CloseLocked()
}

// renderIndexLocked renders the tournament view: every board, sorted by ID.
func (s *Server) renderIndexLocked() *stream.Frame { return s.renderIndexLangLocked("", s.index) }

// renderIndexLangLocked is renderIndexLocked in language l, as a patch on
// prev, that language's tournament view before (or nil).
func (s *Server) renderIndexLangLocked(l i18n.Lang, prev *stream.Frame) *stream.Frame {
	ids := make([]string, 0, len(s.boards))
	for id := range s.boards {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	boards := make([]view.Board, len(ids))
	for i, id := range ids {
		boards[i] = s.boards[id].Board
	}
	return s.hub.NewFrameLocked(prev, uint64(len(ids)), view.TournamentTree(l, boards))
}
