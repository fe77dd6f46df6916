package broker

import (
	"context"
	"net"
	"os/exec"
	"strings"
	"testing"
)

// Debian's mosquitto clients against the embedded broker.
func TestMosquittoClients(t *testing.T) {
	sub, err := exec.LookPath("mosquitto_sub")
	if err != nil {
		t.Skip("mosquitto_sub not installed (Debian: mosquitto-clients)")
	}
	pub, err := exec.LookPath("mosquitto_pub")
	if err != nil {
		t.Skip("mosquitto_pub not installed (Debian: mosquitto-clients)")
	}
	b := startBroker(t, Config{WSAddr: Off})
	host, port, _ := net.SplitHostPort(b.TCPAddr())
	ctx, cancel := context.WithTimeout(context.Background(), 4*wait)
	defer cancel()

	// An anonymous mosquitto_sub on zertz/# reads state, never commands.
	board := mustConnect(t, "tcp://"+b.TCPAddr(), "board1", "board-secret")
	board.Publish("zertz/b1/status", 1, true, "online").WaitTimeout(wait)
	op := mustConnect(t, "tcp://"+b.TCPAddr(), "op", "op-secret")
	op.Publish("zertz/b1/cmd/set-players", 1, true, `{"token":"t0p"}`).WaitTimeout(wait) // retained, to be sure it is there
	board.Publish("zertz/b1/state", 1, true, `{"seq":1}`).WaitTimeout(wait)
	out, err := exec.CommandContext(ctx, sub, "-h", host, "-p", port, "-t", "zertz/#", "-v", "-C", "2", "-W", "20").CombinedOutput()
	if err != nil {
		t.Fatalf("mosquitto_sub: %v\n%s", err, out)
	}
	if got := string(out); strings.Contains(got, "cmd/") || !strings.Contains(got, `zertz/b1/state {"seq":1}`) || !strings.Contains(got, "zertz/b1/status online") {
		t.Errorf("mosquitto_sub printed %q; want the status and the state, no command", got)
	}

	// A refused QoS 1 publish: MQTT 3.1.1 closes the connection, which
	// mosquitto must not call a protocol error (a DISCONNECT from a broker
	// is one in 3.1.1); MQTT 5 gets PUBACK "not authorized".
	for _, tc := range []struct{ version, want string }{{"mqttv311", ""}, {"mqttv5", "not authorized"}} {
		out, _ := exec.CommandContext(ctx, pub, "-h", host, "-p", port, "-V", tc.version, "-q", "1", "-t", "zertz/b1/cmd/new-game", "-m", "{}").CombinedOutput()
		got := strings.ToLower(string(out))
		if strings.Contains(got, "protocol error") || !strings.Contains(got, tc.want) {
			t.Errorf("mosquitto_pub -V %s of a command as a viewer: %q; want no protocol error and %q", tc.version, out, tc.want)
		}
	}
}
