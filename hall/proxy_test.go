package hall

import (
	"os"
	"strings"
	"testing"
)

// exampleProxy is firmware-config/nginx/scoreboards.conf: two scoreboards
// on the proxy's machine.
var exampleProxy = Proxy{Listen: "80", Scoreboards: []string{"127.0.0.1:8081", "127.0.0.1:8082"}}

const exampleProxyPath = "../firmware-config/nginx/scoreboards.conf"

// TestProxyExample: the example is what the package writes (go test
// ./hall -update rewrites it), and it has what event streams need.
func TestProxyExample(t *testing.T) {
	want, err := ProxyConfig(exampleProxy)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(exampleProxyPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(exampleProxyPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is not what package hall writes; run go test ./hall -update", exampleProxyPath)
	}
	events := want[strings.Index(want, "location = /events {"):]
	events = events[:strings.Index(events, "}")]
	for _, line := range []string{"proxy_buffering off;", "proxy_read_timeout 24h;", "proxy_pass http://zertzboard_scoreboards;"} {
		if !strings.Contains(events, line) {
			t.Errorf("the event streams' location lacks %q:\n%s", line, events)
		}
	}
	for _, line := range []string{"proxy_http_version 1.1;", `proxy_set_header Connection "";`, "gzip off;", "server 127.0.0.1:8082 backup;"} {
		if !strings.Contains(want, line) {
			t.Errorf("no %q in\n%s", line, want)
		}
	}
	for _, p := range []Proxy{{Listen: "", Scoreboards: []string{"a:1"}}, {Listen: "80"}, {Listen: "80", Scoreboards: []string{"a"}}, {Listen: "80; x", Scoreboards: []string{"a:1"}}} {
		if _, err := ProxyConfig(p); err == nil {
			t.Errorf("ProxyConfig(%+v) accepted", p)
		}
	}
}
