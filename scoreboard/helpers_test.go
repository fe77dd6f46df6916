package scoreboard

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/zertzboard/zertzboard/engine"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/scoreboard/stream"
	"github.com/zertzboard/zertzboard/scoreboard/stream/streamtest"
	"github.com/zertzboard/zertzboard/wire"
)

// wait bounds every wait on a condition; tests finish far sooner.
const wait = 10 * time.Second

func testLogger(t testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})).With("test", t.Name())
	}
	return slog.New(slog.DiscardHandler)
}

// waitFor waits until cond holds, checking it again at each change of s
// (Server.changes): each message handled, each language's views dropped.
func waitFor(t testing.TB, s *Server, what string, cond func() bool) {
	t.Helper()
	timeout := time.After(wait)
	for {
		changed := s.Changes()
		if cond() {
			return
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// sampleGame reads a 37-ring sample record that replays legally and has
// at least minTurns turns.
func sampleGame(t testing.TB, minTurns int) (*record.Record, *record.Replay) {
	return sampleGameOf(t, "37", minTurns)
}

// sampleGameOf reads a sample record of the variant (e.g. "48") that
// replays legally and has at least minTurns turns.
func sampleGameOf(t testing.TB, variant string, minTurns int) (*record.Record, *record.Replay) {
	t.Helper()
	files, err := samples.Records(samples.BuiltinDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		rec, err := record.ReadFile(f)
		if err != nil {
			continue
		}
		if rec.Variant != variant {
			continue
		}
		rep, err := rec.Replay()
		if err != nil || rep.Game.Len() < minTurns {
			continue
		}
		return rec, rep
	}
	t.Fatalf("no %s-ring built-in game of %d turns", variant, minTurns)
	return nil, nil
}

// gameStates are the states of a replayed game after 0, 1, … turns, as a
// referee resumed at each turn describes them; seq is turns+1.
func gameStates(t testing.TB, rec *record.Record, rep *record.Replay, boardID string) []wire.State {
	t.Helper()
	b, rules, err := rec.Board()
	if err != nil {
		t.Fatal(err)
	}
	var out []wire.State
	for n := 0; n <= rep.Game.Len(); n++ {
		g := rep.Game.Clone()
		if err := g.Undo(rep.Game.Len() - n); err != nil {
			t.Fatal(err)
		}
		ref, err := referee.New(referee.Config{Board: b, Rules: rules, Game: g})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, wire.Snapshot(ref, boardID, rec.Players, uint64(n+1), int64(n)*1000))
	}
	return out
}

func stateJSON(t testing.TB, s wire.State) []byte {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func eventJSON(t testing.TB, body referee.Body) []byte {
	t.Helper()
	b, err := json.Marshal(referee.Event{T: 1, Body: body})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var users = []broker.User{{Name: "board", Password: "board-pw", Role: broker.RoleBoard}}

// startBroker starts the embedded broker on loopback ports picked by the
// system.
func startBroker(t testing.TB) *broker.Broker {
	t.Helper()
	return startBrokerWith(t, users)
}

// startBrokerWith is startBroker with these accounts.
func startBrokerWith(t testing.TB, accounts []broker.User) *broker.Broker {
	t.Helper()
	b, err := broker.New(broker.Config{TCPAddr: "127.0.0.1:0", WSAddr: broker.Off, Users: accounts, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// closeBrokerFirst closes the broker before the clients made so far
// disconnect (cleanups run last-in first-out). mochi 2.7.9's Close can
// deadlock against a client that is disconnecting at that moment
// (Clients.GetByListener read-locks twice; a waiting Delete blocks the
// second), so the broker must not close while clients leave.
func closeBrokerFirst(t testing.TB, b *broker.Broker) {
	t.Cleanup(func() { b.Close() })
}

// board publishes as a board's controller does: retained QoS 1 state and
// status, QoS 0 events. It is a plain paho client with a clean session:
// broadcast.Publisher keeps a persistent session, and paho 1.5.1 races
// resending its stored messages (resume sets their Dup flag) against the
// "online" the publisher sends from its connect handler, which the race
// detector reports in any test that connects one.
type board struct {
	t      testing.TB
	c      mqtt.Client
	prefix string
}

func newBoard(t testing.TB, b *broker.Broker, id string) *board {
	t.Helper()
	o := mqtt.NewClientOptions().AddBroker("tcp://"+b.TCPAddr()).SetClientID("board-"+id).
		SetUsername("board").SetPassword("board-pw").SetCleanSession(true).SetAutoReconnect(false).
		SetConnectTimeout(wait).SetWill("zertz/"+id+"/status", "offline", 1, true)
	c := mqtt.NewClient(o)
	if tok := c.Connect(); !tok.WaitTimeout(wait) || tok.Error() != nil {
		t.Fatalf("board connect: %v", tok.Error())
	}
	t.Cleanup(func() { c.Disconnect(50) })
	return &board{t: t, c: c, prefix: "zertz/" + id + "/"}
}

// publish sends and, for QoS 1, waits for the broker's acknowledgement.
func (b *board) publish(topic string, qos byte, retain bool, payload []byte) {
	b.t.Helper()
	if tok := b.c.Publish(b.prefix+topic, qos, retain, payload); !tok.WaitTimeout(wait) || tok.Error() != nil {
		b.t.Fatalf("publish %s: %v", topic, tok.Error())
	}
}

func (b *board) state(s wire.State) { b.t.Helper(); b.publish("state", 1, true, stateJSON(b.t, s)) }
func (b *board) status(s string)    { b.t.Helper(); b.publish("status", 1, true, []byte(s)) }
func (b *board) event(body referee.Body) {
	b.t.Helper()
	b.publish("events", 0, false, eventJSON(b.t, body))
}

// follow runs s.Follow on the broker until the test ends, and waits for
// its subscription.
func follow(t testing.TB, s *Server, b *broker.Broker) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	subscribed := make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() {
		done <- s.Follow(ctx, MQTTConfig{Broker: "tcp://" + b.TCPAddr(), Connected: func() {
			select {
			case subscribed <- struct{}{}:
			default:
			}
		}})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Follow: %v", err)
		}
	})
	select {
	case <-subscribed:
	case err := <-done:
		t.Fatalf("Follow returned early: %v", err)
	case <-time.After(wait):
		t.Fatal("timed out waiting for the scoreboard's subscription")
	}
}

// sseClient reads one server-sent event stream.
type sseClient struct {
	resp   *http.Response
	r      *bufio.Reader
	cancel context.CancelFunc
	// The view the stream shows, rebuilt from patches as a browser does.
	ver     uint64
	cur     *stream.Node
	patches int // views that came as patches
}

// dialSSE opens an event stream; reads fail after the test's wait.
func dialSSE(t testing.TB, url string) *sseClient {
	t.Helper()
	c, err := openSSE(context.Background(), http.DefaultClient, url, wait)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.close)
	return c
}

func openSSE(ctx context.Context, hc *http.Client, url string, timeout time.Duration) (*sseClient, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	resp, err := hc.Do(req)
	if err != nil {
		cancel()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body.Close()
		cancel()
		return nil, fmt.Errorf("GET %s: %s, %s", url, resp.Status, resp.Header.Get("Content-Type"))
	}
	return &sseClient{resp: resp, r: bufio.NewReader(resp.Body), cancel: cancel}, nil
}

func (c *sseClient) close() { c.cancel(); c.resp.Body.Close() }

type sseView struct {
	Seq   uint64 `json:"seq"`
	Ver   uint64 `json:"ver"`
	Age   int64  `json:"age"`
	HTML  string `json:"html"`
	Patch bool   `json:"-"` // it came as a patch
}

type ssePatch struct {
	Seq  uint64 `json:"seq"`
	Ver  uint64 `json:"ver"`
	Base uint64 `json:"base"`
	Age  int64  `json:"age"`
	stream.Patch
}

// next returns the next view, whole or rebuilt from a patch, skipping
// comments and other fields. A patch on another view than the stream's is
// an error.
func (c *sseClient) next() (sseView, error) {
	var event string
	var data []byte
	for {
		line, err := c.r.ReadBytes('\n')
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return sseView{}, err
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			switch {
			case event == "view" && data != nil:
				var v sseView
				err := json.Unmarshal(data, &v)
				c.ver, c.cur = v.Ver, streamtest.Parse(v.HTML)
				return v, err
			case event == "patch" && data != nil:
				var p ssePatch
				if err := json.Unmarshal(data, &p); err != nil {
					return sseView{}, err
				}
				if p.Base != c.ver || c.ver == 0 || c.cur == nil {
					return sseView{}, fmt.Errorf("a patch of view %d on view %d", p.Base, c.ver)
				}
				h := streamtest.Apply(c.cur, p.Patch)
				c.ver, c.cur = p.Ver, streamtest.Parse(h)
				c.patches++
				return sseView{Seq: p.Seq, Ver: p.Ver, Age: p.Age, HTML: h, Patch: true}, nil
			}
			event, data = "", nil
		case bytes.HasPrefix(line, []byte("event: ")):
			event = string(line[7:])
		case bytes.HasPrefix(line, []byte("data: ")):
			data = append(data, line[6:]...)
		}
	}
}

// nextSeq reads views until one shows seq.
func (c *sseClient) nextSeq(t testing.TB, seq uint64) sseView {
	t.Helper()
	for {
		v, err := c.next()
		if err != nil {
			t.Fatalf("waiting for seq %d: %v", seq, err)
		}
		if v.Seq == seq {
			return v
		}
	}
}

// newState is the opening state of a standard board.
func newState(t testing.TB, board string, players [2]string) wire.State {
	t.Helper()
	ref, err := referee.New(referee.Config{Board: engine.MustStandardBoard(board), Rules: engine.Standard})
	if err != nil {
		t.Fatal(err)
	}
	return wire.Snapshot(ref, "t1", players, 1, 0)
}
