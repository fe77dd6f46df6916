package scoreboard

import (
	"encoding/json"
	"strings"
	"sync"
	"time"
)

// The arbiter console and the results read a board's topics on their own,
// beside the views of hub.go: observe gets every message Handle accepts,
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

// ClockState is the state's "clock" object (docs/CONTRACTS.md 5.2).
type ClockState struct {
	Control     string    `json:"control"`
	RemainingMS *[2]int64 `json:"remaining_ms"`
	Running     *int      `json:"running"`
	Paused      bool      `json:"paused"`
	IncrementMS int64     `json:"increment_ms,omitempty"`
}

// TakebackRequest is the state's "takeback_request" (tournament mode).
type TakebackRequest struct {
	Turn int `json:"turn"`
	By   int `json:"by"`
}

// opState is the part of a state the console and the results read.
type opState struct {
	Seq        uint64           `json:"seq"`
	T          int64            `json:"t"`
	Published  int64            `json:"published_ms"`
	Variant    string           `json:"variant"`
	Mode       string           `json:"mode"`
	Players    [2]string        `json:"players"`
	ToMove     int              `json:"to_move"`
	Phase      string           `json:"phase"`
	Turn       int              `json:"turn"`
	Winner     *int             `json:"winner"`
	Result     string           `json:"result"`
	ResultNote string           `json:"result_note"`
	Missed     []int            `json:"missed_captures"`
	GameID     string           `json:"game_id"`
	Clock      *ClockState      `json:"clock"`
	Takeback   *TakebackRequest `json:"takeback_request"`
	Status     string           `json:"status"`
	Question   *opQuestion      `json:"question"`
	DeadCells  []string         `json:"dead_cells"`
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

// recInfo is what results check of a record before keeping it.
type recInfo struct {
	Variant string    `json:"variant"`
	Players [2]string `json:"players"`
	Turns   []string  `json:"turns"`
	End     *struct {
		Kind string `json:"kind"`
	} `json:"end"`
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

// observe takes one message of a valid board ID whose payload is within
// maxPayload. kind is state, status, events, moves or record.
func (o *observer) observe(id, kind string, payload []byte) {
	var (
		st     *opState
		rec    *recInfo
		status string
		ev     struct {
			Event  string `json:"event"`
			Reason string `json:"reason"`
			Player int    `json:"player"`
			From   string `json:"from"`
			To     string `json:"to"`
		}
	)
	switch kind {
	case "state":
		if len(payload) > 0 {
			st = new(opState)
			if json.Unmarshal(payload, st) != nil {
				return
			}
		}
	case "record":
		if len(payload) > maxRecord {
			return
		}
		if len(payload) > 0 {
			rec = new(recInfo)
			if json.Unmarshal(payload, rec) != nil {
				return
			}
		}
	case "status":
		var ok bool
		if status, ok = parseStatus(payload); !ok {
			return
		}
	case "events":
		if json.Unmarshal(payload, &ev) != nil {
			return
		}
	case "moves":
	default:
		return
	}

	o.mu.Lock()
	over := o.applyLocked(id, kind, payload, st, rec, status, ev.Event, ev.Reason, ev.From+"→"+ev.To)
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
			b.illegal = clipText(reason, 200)
		case "restored":
			b.illegalSince, b.illegal = time.Time{}, ""
			b.stopTimer()
		case "touch-move":
			b.touchMove = clipText(move, 40)
		case "missed-capture":
			b.missed = true
		case "fault":
			switch {
			case strings.HasPrefix(reason, "sensor faults"):
				b.fault = clipText(reason, 200)
			case strings.HasPrefix(reason, "sensors healthy"):
				b.fault = ""
			default:
				return nil
			}
		default:
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

// finished reports whether the board's state is a finished game and its
// record is that game's final record: the state comes before its record,
// so the record of the last turn (or, for a result declared off the
// board, the one carrying "end") may still be on its way.
func (b *opBoard) finished() bool {
	s, r := b.state, b.rec
	if s == nil || r == nil || s.Phase != "over" {
		return false
	}
	if len(r.Turns) != s.Turn || r.Variant != s.Variant || r.Players != s.Players {
		return false
	}
	switch s.Result {
	case "time", "resignation", "adjudication", "draw":
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

// clipText bounds a string from the broker, on a rune boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := n; i > 0; i-- {
		if s[i]&0xC0 != 0x80 {
			return s[:i] + "…"
		}
	}
	return ""
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
