package hostile

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// figures are the measurements of the attacks of issue 19, logged at the
// end of the suite.
var figures struct {
	mu    sync.Mutex
	lines []string
}

func figure(t *testing.T, format string, a ...any) {
	line := fmt.Sprintf(format, a...)
	t.Log(line)
	figures.mu.Lock()
	figures.lines = append(figures.lines, line)
	figures.mu.Unlock()
}

// connectAs is a clean-session MQTT 3.1.1 CONNECT with a user name and
// password ("" for none).
func connectAs(clientID, user, pass string) []byte {
	flags := byte(0x02)
	if user != "" {
		flags |= 0xC0
	}
	body := append(str("MQTT"), 4, flags, 0, 60)
	body = append(body, str(clientID)...)
	if user != "" {
		body = append(append(body, str(user)...), str(pass)...)
	}
	return append(append([]byte{0x10}, varint(len(body))...), body...)
}

// packet reads one MQTT packet: its type and body.
func packet(r *bufio.Reader) (byte, []byte, error) {
	h, err := r.ReadByte()
	if err != nil {
		return 0, nil, err
	}
	n, mul := 0, 1
	for {
		b, err := r.ReadByte()
		if err != nil {
			return 0, nil, err
		}
		n += int(b&0x7f) * mul
		mul *= 128
		if b&0x80 == 0 {
			break
		}
	}
	body := make([]byte, n)
	_, err = io.ReadFull(r, body)
	return h >> 4, body, err
}

// dialMQTT connects from address n with CONNECT and returns the
// connection, its reader and the CONNACK's return code.
func dialMQTT(b *board, n int, connect []byte) (net.Conn, *bufio.Reader, byte, error) {
	c, err := from(n).Dial("tcp", b.mqtt)
	if err != nil {
		return nil, nil, 0, err
	}
	c.SetDeadline(time.Now().Add(wait))
	c.Write(connect)
	r := bufio.NewReader(c)
	typ, body, err := packet(r)
	if err != nil || typ != 2 || len(body) < 2 {
		c.Close()
		if err == nil {
			err = fmt.Errorf("no CONNACK (packet type %d)", typ)
		}
		return nil, nil, 0, err
	}
	c.SetDeadline(time.Time{})
	return c, r, body[1], nil
}

func subscribeTo(filter string, id uint16) []byte {
	body := append(append([]byte{byte(id >> 8), byte(id)}, str(filter)...), 0)
	return append(append([]byte{0x82}, varint(len(body))...), body...)
}

// opAddr is the operator's own device (127.0.200.2): the address it logs
// in from throughout, as an arbiter's laptop would. A password guesser
// elsewhere does not lock it out.
const opAddr = 250 * 200

// awaitReply has the operator send a health-check command with id and
// waits for the board's command-accepted: the board's command path works.
func awaitReply(b *board, id string) error {
	c, r, code, err := dialMQTT(b, opAddr, connectAs("hostile-op-"+id, opUser, opPass))
	if err != nil {
		return err
	}
	defer c.Close()
	if code != 0 {
		return fmt.Errorf("operator refused: CONNACK %#x", code)
	}
	c.Write(subscribeTo("zertz/"+b.id+"/events", 1))
	for { // the SUBACK first: then the command's reply cannot be missed
		typ, _, err := packet(r)
		if err != nil {
			return err
		}
		if typ == 9 {
			break
		}
	}
	payload := []byte(fmt.Sprintf(`{"id":%q}`, id))
	vh := append(str("zertz/"+b.id+"/cmd/health-check"), 0, 7)
	c.Write(append(append(append([]byte{0x32}, varint(len(vh)+len(payload))...), vh...), payload...))
	c.SetReadDeadline(time.Now().Add(wait))
	for {
		typ, body, err := packet(r)
		if err != nil {
			return fmt.Errorf("no reply to the command: %w", err)
		}
		// Any reply proves the path (a version without health-check
		// refuses it as unknown).
		if typ == 3 && strings.Contains(string(body), `"id":"`+id+`"`) && strings.Contains(string(body), `"event":"command-`) {
			return nil
		}
	}
}

// Finding 1: anonymous clients taking the board's client ID knocked it off
// and, 4 times in 9, left it deaf to commands.
var clientIDTakeover = attack{"client-ID take-over, 12 tries", func(t *testing.T, b *board, src int) {
	before := b.disconnects.Load()
	accepted := 0
	for i := 0; i < 12; i++ {
		c, _, code, err := dialMQTT(b, src, connect("zertzboard-"+b.id, 60))
		if err != nil {
			continue
		}
		if code == 0 {
			accepted++
			drain(c, 200*time.Millisecond) // hold it a moment, as the attack did
		}
		c.Close()
	}
	err := awaitReply(b, "after-takeover")
	figure(t, "client-ID take-over: %d of 12 CONNECTs with the board's ID accepted; board disconnects %d; command path afterwards: %v",
		accepted, b.disconnects.Load()-before, errString(err))
	if accepted > 0 || b.disconnects.Load() != before || err != nil {
		t.Errorf("take-over: %d accepted, %d disconnects, command path: %v; want 0, 0, working", accepted, b.disconnects.Load()-before, err)
	}
}}

func errString(err error) string {
	if err == nil {
		return "works"
	}
	return err.Error()
}

// longestGap is the longest wait between two states, or before the first
// or after the last, within [from, to].
func (b *board) longestGap(from, to time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	last, gap := from, time.Duration(0)
	for _, at := range b.times {
		if at.Before(from) || at.After(to) {
			continue
		}
		gap = max(gap, at.Sub(last))
		last = at
	}
	return max(gap, to.Sub(last))
}

// stateFlow tells starvation apart from the game's own pauses between
// from and to. A state is published only when something changed (a
// turn, a take-back, the clock paused…), so a long wait between states
// may be the players thinking; what an attack can do is hold back what the
// board has published.
//
// starved is the longest a viewer waited for something the board had
// already published: a move (from its published_ms to its arrival; moves
// are never replaced, and they queue with the states), or a state (from
// its published_ms, or the previous state's arrival if later). The board
// keeps only the latest unsent state, so a state can be replaced by the
// next and never seen (superseded counts those): its wait is counted from
// its move's published_ms; a replaced state without a move (a game's end
// and the next game's start, published together) counts from the state
// that replaced it, and its move-less kin, held back, would show in the
// moves' and other states' waits. idle is the longest time the board
// published nothing between two consecutive states the viewer saw: the
// game's pace.
func (b *board) stateFlow(from, to time.Time) (starved, idle time.Duration, superseded int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, m := range b.moves {
		if !m.at.Before(from) && !m.at.After(to) {
			starved = max(starved, m.at.Sub(m.pub))
		}
	}
	var prevAt, prevPub time.Time
	var prevSeq uint64
	for i, at := range b.times {
		if at.After(to) {
			break
		}
		seq, pub := b.seqs[i], b.pubs[i]
		if !at.Before(from) && !prevAt.IsZero() {
			skipped := 0
			if seq > prevSeq+1 {
				skipped = int(seq - prevSeq - 1)
			}
			superseded += skipped
			if pub.IsZero() { // a retained replay: when it was published is not known
				starved = max(starved, at.Sub(prevAt))
			} else {
				starved = max(starved, at.Sub(maxTime(pub, prevAt)))
				if skipped == 0 && !prevPub.IsZero() {
					idle = max(idle, pub.Sub(prevPub))
				}
			}
			for k := prevSeq + 1; k < seq; k++ {
				if mp, ok := b.movePubs[k]; ok {
					starved = max(starved, at.Sub(maxTime(mp, prevAt)))
				}
			}
		}
		prevAt, prevPub, prevSeq = at, pub, max(prevSeq, seq)
	}
	return starved, idle, superseded
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// statesBetween counts the states that arrived within [from, to].
func (b *board) statesBetween(from, to time.Time) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, at := range b.times {
		if !at.Before(from) && !at.After(to) {
			n++
		}
	}
	return n
}

// Finding 2: an operator flooding refused commands froze the broadcast
// and had acknowledged commands dropped.
var operatorFlood = attack{"operator flood, 300 refused commands at QoS 1", func(t *testing.T, b *board, src int) {
	c, r, code, err := dialMQTT(b, opAddr, connectAs("hostile-flood", opUser, opPass))
	if err != nil || code != 0 {
		t.Fatalf("operator: %v, CONNACK %#x", err, code)
	}
	defer c.Close()
	before := b.disconnects.Load()
	c.Write(subscribeTo("zertz/"+b.id+"/events", 1))
	const n = 300
	var mu sync.Mutex
	acked, replied := map[uint16]bool{}, map[string]bool{}
	subscribed := make(chan struct{})
	changed := make(chan struct{}, 1)
	go func() {
		for {
			typ, body, err := packet(r)
			if err != nil {
				return
			}
			mu.Lock()
			switch typ {
			case 9:
				close(subscribed)
			case 4:
				acked[uint16(body[0])<<8|uint16(body[1])] = true
			case 3:
				var e struct{ ID string }
				if tl := int(body[0])<<8 | int(body[1]); 2+tl <= len(body) && json.Unmarshal(body[2+tl:], &e) == nil && strings.HasPrefix(e.ID, "f") {
					replied[e.ID] = true
				}
			}
			mu.Unlock()
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	}()
	<-subscribed
	start := time.Now()
	for i := 1; i <= n; i++ {
		// Blank names: refused, each with a reply.
		payload := []byte(fmt.Sprintf(`{"id":"f%d","players":[" "," "]}`, i))
		vh := append(str("zertz/"+b.id+"/cmd/set-players"), byte(i>>8), byte(i))
		if _, err := c.Write(append(append(append([]byte{0x32}, varint(len(vh)+len(payload))...), vh...), payload...)); err != nil {
			break
		}
	}
	lost := func() (l, a, rep int) {
		mu.Lock()
		defer mu.Unlock()
		for id := range acked {
			if !replied[fmt.Sprint("f", id)] {
				l++
			}
		}
		return l, len(acked), len(replied)
	}
	deadline := time.After(wait)
	for done := false; !done; {
		if l, a, _ := lost(); l == 0 && a == n {
			break
		}
		select {
		case <-changed:
		case <-deadline:
			done = true
		}
	}
	end := time.Now()
	l, a, rep := lost()
	delay, idle, superseded := b.stateFlow(start, end)
	figure(t, "operator flood: %d commands sent, all answered or given up after %v; %d acknowledged, %d replies, %d acknowledged but lost; %d states meanwhile, longest state gap %v (the board published nothing for %v of it: the game's pace), longest starved %v, %d superseded; board disconnects %d",
		n, end.Sub(start).Round(100*time.Millisecond), a, rep, l, b.statesBetween(start, end), b.longestGap(start, end).Round(10*time.Millisecond),
		idle.Round(10*time.Millisecond), delay.Round(time.Millisecond), superseded, b.disconnects.Load()-before)
	if l > 0 || a != n || b.disconnects.Load() != before {
		t.Errorf("flood: %d of %d acknowledged, %d lost, %d disconnects; want all acknowledged, none lost, no disconnect", a, n, l, b.disconnects.Load()-before)
	}
}}

// Finding 3: the broker let one address guess operator passwords at 9.5
// tries a second.
var passwordGuessing = attack{"password guessing over MQTT, 30 tries", func(t *testing.T, b *board, src int) {
	start := time.Now()
	for i := 0; i < 30; i++ {
		if c, _, _, err := dialMQTT(b, src, connectAs(fmt.Sprint("guess-", i), opUser, fmt.Sprint("guess-", i))); err == nil {
			c.Close()
		}
	}
	took := time.Since(start)
	c, _, code, err := dialMQTT(b, src, connectAs("guess-right", opUser, opPass))
	if err == nil {
		c.Close()
	}
	verdict := "refused: at most 5 guesses at once, then 1 per 12 s (0.083/s) were checked"
	if err == nil && code == 0 {
		verdict = fmt.Sprintf("accepted: all 30 were checked, %.0f/s", 30/took.Seconds())
	}
	figure(t, "password guessing: 30 wrong tries from one address in %v, then the right password: CONNACK %#x, %s",
		took.Round(10*time.Millisecond), code, verdict)
	if err == nil && code == 0 {
		t.Error("the right password was accepted after 30 guesses from one address")
	}
}}

// Finding 4: 9 addresses × 32 idle anonymous connections took the broker's
// slots; viewers and the console were refused.
var mqttLockout = attack{"MQTT lock-out, 9 addresses × 32 anonymous", func(t *testing.T, b *board, src int) {
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	held := 0
	for a := 0; a < 9; a++ {
		for i := 0; i < 32; i++ {
			c, _, code, err := dialMQTT(b, src+a, connect(fmt.Sprintf("lock-%d-%d", a, i), 60))
			if err != nil {
				continue
			}
			conns = append(conns, c)
			if code == 0 {
				held++
			}
		}
	}
	viewer := "refused"
	if c, r, code, err := dialMQTT(b, src+20, connect("late-viewer", 60)); err == nil {
		if code == 0 {
			c.Write(subscribeTo("zertz/"+b.id+"/state", 1))
			if typ, _, err := packet(r); err == nil && typ == 9 {
				viewer = "served"
			}
		}
		c.Close()
	}
	op := awaitReply(b, "during-lockout")
	figure(t, "MQTT lock-out: %d of 288 anonymous connections held; a new viewer: %s; an operator's command: %v", held, viewer, errString(op))
	if viewer != "served" || op != nil {
		t.Errorf("during the lock-out: viewer %s, operator %v; want both served", viewer, op)
	}
}}

// Finding 4: 33 addresses × 64 event streams took every HTTP slot, the
// console's included.
var httpLockout = attack{"HTTP lock-out, 33 addresses × 64 streams", func(t *testing.T, b *board, src int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var open atomic.Int64
	var wg, answered sync.WaitGroup
	for a := 0; a < 33; a++ {
		tr := &http.Transport{DialContext: from(src + a).DialContext, MaxConnsPerHost: 64}
		hc := &http.Client{Transport: tr}
		for i := 0; i < 64; i++ {
			wg.Add(1)
			answered.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+b.http+"/events?board="+b.id, nil)
				resp, err := hc.Do(req)
				answered.Done()
				if err != nil {
					return
				}
				defer resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					open.Add(1)
					io.Copy(io.Discard, resp.Body) // held until the attack ends
				}
			}()
		}
	}
	answered.Wait() // every stream open or refused
	hc := &http.Client{Transport: &http.Transport{DialContext: from(src + 40).DialContext}, Timeout: wait}
	status := 0
	if resp, err := hc.Get("http://" + b.http + "/console"); err == nil {
		status = resp.StatusCode
		resp.Body.Close()
	}
	viewer := 0
	vctx, vcancel := context.WithCancel(ctx)
	vreq, _ := http.NewRequestWithContext(vctx, "GET", "http://"+b.http+"/events?board="+b.id, nil)
	vhc := &http.Client{Transport: &http.Transport{DialContext: from(src + 41).DialContext}}
	if resp, err := vhc.Do(vreq); err == nil {
		viewer = resp.StatusCode
		vcancel()
		resp.Body.Close()
	}
	vcancel()
	figure(t, "HTTP lock-out: %d of 2112 event streams open; from other addresses, GET /console: %d, a viewer's stream: %d", open.Load(), status, viewer)
	if status != http.StatusOK || viewer != http.StatusOK {
		t.Errorf("during the lock-out: /console %d, a viewer's stream %d; want 200 and 200", status, viewer)
	}
	cancel()
	wg.Wait()
}}

// Finding 4: one operator session could open all 32 console streams.
var consoleStreams = attack{"one session opening 32 console streams", func(t *testing.T, b *board, src int) {
	jar, _ := cookiejar.New(nil)
	tr := &http.Transport{DialContext: from(src).DialContext}
	hc := &http.Client{Transport: tr, Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"user": {opUser}, "password": {opPass}}
	req, _ := http.NewRequest("POST", "http://"+b.http+"/console/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://"+b.http)
	resp, err := hc.Do(req)
	if err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("log-in: %v %v", err, resp)
	}
	resp.Body.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened := 0
	var bodies []io.Closer
	for i := 0; i < 32; i++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+b.http+"/console/events", nil)
		resp, err := hc.Do(req)
		if err != nil {
			continue
		}
		if resp.StatusCode == http.StatusOK {
			opened++
		}
		bodies = append(bodies, resp.Body)
	}
	figure(t, "console streams: one session opened %d of 32", opened)
	if opened > 4 {
		t.Errorf("one session opened %d console streams; want at most 4", opened)
	}
	cancel()
	for _, b := range bodies {
		b.Close()
	}
}}
