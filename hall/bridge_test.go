package hall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The example bridge-hall.conf is written with these values, which the
// file then names by its placeholders: HALL_PORT, CENTRE_HOST and
// CENTRE_PORT (replaced with sed, README.md).
const (
	exampleHallPort   = "41883"
	exampleCentreHost = "centre.invalid"
	exampleCentrePort = "41884"
)

// ExampleBridge is the bridge of firmware-config/mosquitto/bridge-hall.conf.
var exampleBridge = Bridge{Name: "hall-1", Centre: exampleCentreHost + ":" + exampleCentrePort}

// BridgeExample returns the text of bridge-hall.conf.
func bridgeExample(t *testing.T) string {
	t.Helper()
	conf, err := BridgedHallConfig("0.0.0.0", 41883, "", exampleBridge)
	if err != nil {
		t.Fatal(err)
	}
	return strings.NewReplacer(exampleHallPort, "HALL_PORT", exampleCentreHost, "CENTRE_HOST", exampleCentrePort, "CENTRE_PORT").Replace(conf)
}

// TestBridgeExamples: bridge-hall.conf and centre.conf in
// firmware-config/mosquitto are what the package writes (go test ./hall
// -update rewrites them).
func TestBridgeExamples(t *testing.T) {
	files := map[string]string{
		"bridge-hall.conf": bridgeExample(t),
		"centre.conf":      CentreConfig("0.0.0.0", 1883, "", "/var/lib/mosquitto"),
	}
	for name, want := range files {
		path := filepath.Join(exampleDir, name)
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is not what package hall writes; run go test ./hall -update", path)
		}
	}
}

// TestBridgeConfigTopics: which topics cross which way, at which QoS.
func TestBridgeConfigTopics(t *testing.T) {
	conf, err := BridgeConfig(Bridge{Name: "hall-a", Centre: "centre:1883", Username: "hall-a", Password: "pw", Boards: []string{"a1", "a2"}, RestartTimeout: [2]int{2, 5}})
	if err != nil {
		t.Fatal(err)
	}
	var topics, settings []string
	for _, line := range strings.Split(conf, "\n") {
		switch {
		case strings.HasPrefix(line, "topic "):
			topics = append(topics, strings.TrimPrefix(line, "topic "))
		case line == "" || strings.HasPrefix(line, "#"):
		default:
			settings = append(settings, line)
		}
	}
	want := "zertz/+/status out 1|zertz/+/state out 1|zertz/+/record out 1|zertz/+/moves out 1|zertz/+/events out 0|zertz/a1/cmd/# in 1|zertz/a2/cmd/# in 1"
	if got := strings.Join(topics, "|"); got != want {
		t.Errorf("topics %s; want %s", got, want)
	}
	for _, s := range []string{"connection hall-a", "address centre:1883", "remote_clientid hall-a", "remote_username hall-a", "remote_password pw",
		"cleansession false", "local_cleansession false", "notifications true", "notification_topic $SYS/broker/connection/hall-a/state", "restart_timeout 2 5"} {
		found := false
		for _, l := range settings {
			found = found || l == s
		}
		if !found {
			t.Errorf("no line %q in\n%s", s, conf)
		}
	}
	if strings.Contains(conf, "cmd/# out") || strings.Contains(conf, "state in") {
		t.Errorf("a topic crosses the wrong way:\n%s", conf)
	}
	conf, err = BridgeConfig(Bridge{Name: "h", Centre: "c:1", Prefix: "t/"})
	if err != nil || !strings.Contains(conf, "topic t/+/cmd/# in 1\n") || strings.Contains(conf, "remote_username") {
		t.Errorf("(%v) without boards or account:\n%s", err, conf)
	}
}

func TestBridgeConfigRefusesBadInput(t *testing.T) {
	for _, b := range []Bridge{
		{Name: "", Centre: "c:1883"},
		{Name: "a b", Centre: "c:1883"},
		{Name: "h", Centre: "c"},
		{Name: "h", Centre: "c:0"},
		{Name: "h", Centre: ":1883"},
		{Name: "h", Centre: "c:1883", Password: "pw"},
		{Name: "h", Centre: "c:1883", Username: "u\nconnection x"},
		{Name: "h", Centre: "c:1883", Prefix: "zertz/#/"},
		{Name: "h", Centre: "c:1883", Prefix: "$SYS/"},
		{Name: "h", Centre: "c:1883", Boards: []string{"a/b"}},
		{Name: "h", Centre: "c:1883", RestartTimeout: [2]int{5, 1}},
	} {
		if conf, err := BridgeConfig(b); err == nil {
			t.Errorf("BridgeConfig(%+v) accepted:\n%s", b, conf)
		}
	}
}
