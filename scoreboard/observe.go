package scoreboard

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/scoreboard/results"
	"github.com/zertzboard/zertzboard/scoreboard/view"
	"github.com/zertzboard/zertzboard/wire"
)

// The arbiter console and the results read a board's topics on their own,
// beside the views of boards.go: observe gets every message Handle accepts,
// plus the board's retained record, and keeps per board what an arbiter
// needs (players, turn, clocks, alerts) and what a finished game is made
// of (the final state and the record).

// illegalAlert is how long an illegal board may stand before the console
// flags it (issue 14: "illegal board held for more than 10 s").
const illegalAlert = 10 * time.Second

// maxRecord bounds a board's record the scoreboard keeps: the longest
// game's JSON record, with its clock times, is tens of kB. A larger one
// is ignored (the board's own record is not affected).
const maxRecord = 256 << 10

// opState is the part of a state the console and the results read.
type opState struct {
	Seq        uint64                `json:"seq"`
	T          int64                 `json:"t"`
	Published  int64                 `json:"published_ms"`
	Variant    string                `json:"variant"`
	Mode       referee.Mode          `json:"mode"`
	Players    [2]string             `json:"players"`
	ToMove     int                   `json:"to_move"`
	Phase      engine.Phase          `json:"phase"`
	Turn       int                   `json:"turn"`
	Winner     *int                  `json:"winner"`
	Result     engine.Reason         `json:"result"`
	ResultNote string                `json:"result_note"`
	Missed     []int                 `json:"missed_captures"`
	GameID     string                `json:"game_id"`
	Clock      *wire.Clock           `json:"clock"`
	Takeback   *wire.TakebackRequest `json:"takeback_request"`
	Status     string                `json:"status"`
	Question   *opQuestion           `json:"question"`
	DeadCells  []string              `json:"dead_cells"`
}

// opQuestion is the referee's open question (the state's question).
type opQuestion struct {
	ID          int      `json:"id"`
	Turn        int      `json:"turn"`
	Cell        string   `json:"cell"`
	About       string   `json:"about"`
	Options     []string `json:"options"`
	Provisional int      `json:"provisional"`
}

// recInfo is what results check of a record before keeping it, and the
// arbiter's notes the console shows.
type recInfo struct {
	Variant string    `json:"variant"`
	Players [2]string `json:"players"`
	Turns   []string  `json:"turns"`
	End     *struct {
		Kind string `json:"kind"`
	} `json:"end"`
	GameID   string          `json:"game_id"`
	RawNotes json.RawMessage `json:"notes"`

	// notes are the record's last maxConsoleNotes notes, of noteCount
	// (read from RawNotes by readNotes).
	notes     []recNote
	noteCount int
}

// recNote is one of the arbiter's notes in a record (the JSON record's
// notes, docs/CONTRACTS.md section 6).
type recNote struct {
	Turn int    `json:"turn"`
	Text string `json:"text"`
}

// readNotes keeps the last maxConsoleNotes of the record's notes and
// their count, and lets the rest go. Notes the scoreboard cannot read (a
// newer board's) are no notes: the record is kept all the same.
func (r *recInfo) readNotes() {
	var all []recNote
	if len(r.RawNotes) > 0 && json.Unmarshal(r.RawNotes, &all) == nil {
		r.noteCount = len(all)
		r.notes = append([]recNote(nil), all[max(len(all)-maxConsoleNotes, 0):]...)
	}
	r.RawNotes = nil
}

// opBoard is one board as the console sees it.
type opBoard struct {
	id     string
	status string // online, offline or ""
	// noCommands: the board says its own health-check command did not
	// come back ("online command-path-failed").
	noCommands bool
	state      *opState
	record     []byte // the latest retained record, as received
	rec        *recInfo

	illegalSince time.Time // zero unless the board is illegal now
	illegal      string    // the referee's reason
	touchMove    string    // the latest touch-move this state, "" if none
	missed       bool      // a missed-capture event this state
	fault        string    // "sensor faults: …", "" when healthy
	alertTimer   *time.Timer
}

// observer keeps the opBoards, and wakes the console's streams on change.
type observer struct {
	now func() time.Time

	mu      sync.Mutex
	boards  map[string]*opBoard
	version uint64
	wake    chan struct{} // closed and replaced on each change
	onOver  func(b *opBoard)
}

func newObserver(now func() time.Time) *observer {
	if now == nil {
		now = time.Now
	}
	return &observer{now: now, boards: map[string]*opBoard{}, wake: make(chan struct{})}
}

// changedLocked wakes every console stream.
func (o *observer) changedLocked() {
	o.version++
	close(o.wake)
	o.wake = make(chan struct{})
}

// changes returns a channel closed at the next change, and the version now.
func (o *observer) changes() (<-chan struct{}, uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.wake, o.version
}

// message is one MQTT message decoded once, for both its readers: the
// views (boards.go Handle) and the console and results (the observer).
type message struct {
	state    *wire.State // kind state: nil when the retained state was cleared
	op       *opState    // the same state, as the console and results read it
	rec      *recInfo    // kind record: nil when cleared
	status   string      // kind status: the whole payload, trimmed
	statusOK bool        // it starts with online or offline
	ev       eventMessage
}

// eventMessage is an event as both readers take it: the views the
// notice's body, the console its reason, player and cells.
type eventMessage struct {
	Event string `json:"event"`
	view.NoticeBody
}

// decodeMessage decodes a message of kind (state, status, events, moves
// or record), or says why it cannot: junk changes nothing.
func decodeMessage(kind string, payload []byte) (message, error) {
	var m message
	switch kind {
	case "state":
		if len(payload) > 0 {
			m.state = new(wire.State)
			if err := json.Unmarshal(payload, m.state); err != nil {
				return m, err
			}
			m.op = opStateOf(m.state)
		}
	case "record":
		if len(payload) > maxRecord {
			return m, fmt.Errorf("a record of %d bytes; at most %d kept", len(payload), maxRecord)
		}
		if len(payload) > 0 {
			m.rec = new(recInfo)
			if err := json.Unmarshal(payload, m.rec); err != nil {
				return m, err
			}
			m.rec.readNotes()
		}
	case "status":
		m.status, m.statusOK = parseStatus(payload)
	case "events":
		if err := json.Unmarshal(payload, &m.ev); err != nil {
			return m, err
		}
	}
	return m, nil
}

// opStateOf is the part of a state the console and the results read.
func opStateOf(s *wire.State) *opState {
	st := &opState{Seq: s.Seq, T: s.T, Published: s.PublishedMS, Variant: s.Variant, Mode: s.Mode, Players: s.Players,
		ToMove: s.ToMove, Phase: s.Phase, Turn: s.Turn, Winner: s.Winner, Result: s.Result, ResultNote: s.ResultNote,
		Missed: s.Missed, GameID: s.GameID, Status: s.Status, DeadCells: s.DeadCells}
	if c := s.Clock; c.Control != "" || c.Remaining != nil || c.Running != nil || c.Paused || c.IncrementMS != 0 {
		st.Clock = &c
	}
	if t := s.TakebackRequest; t != nil {
		tr := *t
		st.Takeback = &tr
	}
	if q := s.Question; q != nil {
		st.Question = &opQuestion{ID: q.ID, Turn: q.Turn, Cell: q.Cell, About: q.About, Options: q.Options, Provisional: q.Provisional}
	}
	return st
}

// observe takes one message of a valid board ID whose payload is within
// maxPayload. kind is state, status, events, moves or record.
func (o *observer) observe(id, kind string, payload []byte) {
	switch kind {
	case "state", "record", "status", "events", "moves":
	default:
		return
	}
	m, err := decodeMessage(kind, payload)
	if err != nil {
		return
	}
	o.observeDecoded(id, kind, payload, &m)
}

// observeDecoded is observe with the message decoded already.
func (o *observer) observeDecoded(id, kind string, payload []byte, m *message) {
	switch kind {
	case "state", "record", "events", "moves":
	case "status":
		if !m.statusOK {
			return
		}
	default:
		return
	}
	o.mu.Lock()
	over := o.applyLocked(id, kind, payload, m.op, m.rec, m.status, m.ev.Event, m.ev.Reason, m.ev.From+"→"+m.ev.To)
	o.mu.Unlock()
	// Outside the lock: keeping a result may write to disk.
	if over != nil && o.onOver != nil {
		o.onOver(over)
	}
}

// applyLocked applies one decoded message; it returns a copy of the board
// if it now shows a finished game with its record.
func (o *observer) applyLocked(id, kind string, payload []byte, st *opState, rec *recInfo, status, event, reason, move string) *opBoard {
	b := o.boards[id]
	if b == nil {
		if (kind != "state" && kind != "status" && kind != "record") || len(payload) == 0 {
			return nil
		}
		if len(o.boards) >= maxBoards {
			return nil
		}
		b = &opBoard{id: id}
		o.boards[id] = b
	}
	switch kind {
	case "state":
		if st == nil { // the retained state was cleared: the board is gone
			b.stopTimer()
			delete(o.boards, id)
			o.changedLocked()
			return nil
		}
		if b.state == nil || b.state.Seq != st.Seq {
			b.clearNotices()
		}
		b.state = st
	case "record":
		if rec == nil {
			b.record, b.rec = nil, nil
		} else {
			b.record, b.rec = append([]byte(nil), payload...), rec
		}
	case "status":
		word, rest, _ := strings.Cut(status, " ")
		noCmds := word == "online" && rest == statusNoCommands
		if b.status == word && b.noCommands == noCmds {
			return nil
		}
		b.status, b.noCommands = word, noCmds
	case "moves":
		b.clearNotices()
	case "events":
		if !o.eventLocked(b, event, reason, move) {
			return nil
		}
	}
	o.changedLocked()
	if (kind == "state" || kind == "record") && b.finished() {
		cp := *b // its state and record are replaced, never changed
		return &cp
	}
	return nil
}

// eventLocked applies an event message to b; it reports whether b's view
// changed.
func (o *observer) eventLocked(b *opBoard, event, reason, move string) bool {
	switch event {
	case "illegal":
		if b.illegalSince.IsZero() {
			b.illegalSince = o.now()
			b.stopTimer()
			// Wake the streams when the alert is due; the render
			// decides from the time, so a late timer is harmless.
			b.alertTimer = time.AfterFunc(illegalAlert+50*time.Millisecond, func() {
				o.mu.Lock()
				defer o.mu.Unlock()
				o.changedLocked()
			})
		}
		b.illegal = view.ClipText(reason, 200)
	case "restored":
		b.illegalSince, b.illegal = time.Time{}, ""
		b.stopTimer()
	case "touch-move":
		b.touchMove = view.ClipText(move, 40)
	case "missed-capture":
		b.missed = true
	case "fault":
		switch {
		case strings.HasPrefix(reason, "sensor faults"):
			b.fault = view.ClipText(reason, 200)
		case strings.HasPrefix(reason, "sensors healthy"):
			b.fault = ""
		default:
			return false
		}
	default:
		return false
	}
	return true
}

// finished reports whether the board's state is a finished game and its
// record is that game's final record: the state comes before its record,
// so the record of the last turn (or, for a result declared off the
// board, the one carrying "end") may still be on its way.
func (b *opBoard) finished() bool {
	s, r := b.state, b.rec
	if s == nil || r == nil || s.Phase != engine.PhaseOver {
		return false
	}
	if len(r.Turns) != s.Turn || r.Variant != s.Variant || r.Players != s.Players {
		return false
	}
	if s.Result.OffBoard() {
		return r.End != nil
	}
	return true
}

func (b *opBoard) clearNotices() {
	b.illegalSince, b.illegal, b.touchMove, b.missed = time.Time{}, "", "", false
	b.stopTimer()
}

func (b *opBoard) stopTimer() {
	if b.alertTimer != nil {
		b.alertTimer.Stop()
		b.alertTimer = nil
	}
}

// close stops the alert timers.
func (o *observer) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, b := range o.boards {
		b.stopTimer()
	}
}

// boardRecord returns the board's latest record as received, or nil.
func (o *observer) boardRecord(id string) []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	if b := o.boards[id]; b != nil {
		return b.record
	}
	return nil
}

// statusNoCommands follows "online" in the status of a board whose
// command path failed its health check (broadcast.OnlineCommandPathFailed).
const statusNoCommands = "command-path-failed"

// parseStatus reads a board's status payload: "online" or "offline",
// possibly followed by a space and a word that qualifies it ("online
// command-path-failed"). It returns the payload trimmed, and whether its
// first word is one of the two.
func parseStatus(payload []byte) (string, bool) {
	s := strings.TrimSpace(string(payload))
	word, _, _ := strings.Cut(s, " ")
	return s, word == "online" || word == "offline"
}

// finishedOf is the game b has just finished, for the results.
func finishedOf(b *opBoard) results.Finished {
	s := b.state
	return results.Finished{Board: b.id, GameID: s.GameID, Published: s.Published, Variant: s.Variant, Mode: string(s.Mode),
		Players: s.Players, Winner: s.Winner, Reason: s.Result, Note: s.ResultNote, Turns: s.Turn, Clock: resultsClock(s.Clock),
		Record: b.record}
}

// resultsClock is the state's clock as the results' envelope keeps it
// (GAME.result's "clock", docs/CONTRACTS.md section 8: the same fields,
// increment_ms left out when zero), or nil.
func resultsClock(c *wire.Clock) *results.ClockState {
	if c == nil {
		return nil
	}
	return &results.ClockState{Control: c.Control, RemainingMS: c.Remaining, Running: c.Running, Paused: c.Paused, IncrementMS: c.IncrementMS}
}
