package broadcast

import (
	"testing"

	"github.com/zertzboard/zertzboard/internal/mosquittotest"
)

// startMosquitto runs Debian's mosquitto, open to anonymous clients, on a
// free loopback port and returns its address.
func startMosquitto(t *testing.T) string {
	t.Helper()
	return mosquittotest.Start(t, mosquittotest.Options{})
}

func TestMosquittoInterop(t *testing.T) {
	addr := startMosquitto(t)
	px := startProxy(t, addr)
	viewer := newCollector()
	subscribe(t, "tcp://"+addr, "", "", allTopics, viewer.handler)

	cfg := testConfig(t, "tcp://"+px.addr())
	cfg.Username, cfg.Password = "", ""
	p := newPublisher(t, cfg)
	const n = 30
	for i := uint64(1); i <= n; i++ {
		p.PublishMove(move(i))
		p.PublishState(state(i))
	}
	waitUntil(t, "every move", hasSeq(viewer, t, "moves", n))
	checkMoves(t, viewer.seqs(t, "moves"), n)
	waitUntil(t, "the last state", hasSeq(viewer, t, "state", n))

	late := newCollector()
	subscribe(t, "tcp://"+addr, "", "", allTopics, late.handler)
	waitUntil(t, "retained state and status", func() bool { return len(late.get("state")) > 0 && len(late.get("status")) > 0 })
	if s := late.seqs(t, "state")[0]; s != n || !late.get("state")[0].retained {
		t.Errorf("late subscriber's state: seq %d; want %d, retained", s, n)
	}
	if s := late.last("status"); s != Online {
		t.Errorf("retained status %q; want online", s)
	}

	px.setDown(true) // the board vanishes: mosquitto publishes its Will
	px.cut()
	waitUntil(t, "the will", func() bool { return viewer.last("status") == Offline })
	px.setDown(false)
	waitUntil(t, "online again", func() bool { return viewer.last("status") == Online })
	for i := uint64(n + 1); i <= n+10; i++ {
		p.PublishMove(move(i))
	}
	waitUntil(t, "moves after the reconnect", hasSeq(viewer, t, "moves", n+10))
	checkMoves(t, viewer.seqs(t, "moves"), n+10)
	p.Close()
	waitUntil(t, "offline", func() bool { return viewer.last("status") == Offline })
}
