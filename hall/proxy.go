package hall

import (
	"fmt"
	"net"
	"strings"
)

// Proxy is nginx in front of several scoreboard processes that follow the
// same broker: any of them serves any page and any event stream, so
// viewers are spread over them and a process that dies leaves the others
// serving (a viewer's EventSource reconnects through the proxy to another,
// and gets the whole current view). The arbiter's console keeps its
// sessions in one process: it goes to the first scoreboard, the others
// standing by.
type Proxy struct {
	// Listen is nginx's listen parameter: "80", "0.0.0.0:8080", ….
	Listen string
	// Scoreboards are the processes' host:port (zertzboard scoreboard
	// --http), each started with --proxy and the proxy's address.
	Scoreboards []string
}

// ProxyConfig returns the upstream and server blocks for nginx's http
// block (a file in Debian's /etc/nginx/conf.d/ or sites-enabled/). The
// event streams (/events, /console/events) need:
//
//   - proxy_buffering off: each event goes to the viewer as the
//     scoreboard writes it, not once nginx's buffer fills;
//   - HTTP/1.1 to the scoreboards with keep-alive (proxy_http_version 1.1,
//     an empty Connection header);
//   - long read and send timeouts: a stream lasts as long as the viewer
//     watches; the scoreboard's heartbeat comments every 15 s keep it
//     from looking idle;
//   - no gzip: compressing a stream buffers it too.
//
// The Host header goes through, so that the console's same-origin checks
// see the viewer's host; X-Scoreboard names the process that answered.
func ProxyConfig(p Proxy) (string, error) {
	if p.Listen == "" || strings.ContainsAny(p.Listen, " \t\r\n;{}#") {
		return "", fmt.Errorf("hall: proxy listen %q: want an nginx listen address", p.Listen)
	}
	if len(p.Scoreboards) == 0 {
		return "", fmt.Errorf("hall: proxy: no scoreboard")
	}
	for _, s := range p.Scoreboards {
		if h, port, err := net.SplitHostPort(s); err != nil || h == "" || port == "" || strings.ContainsAny(s, " \t\r\n;{}#") {
			return "", fmt.Errorf("hall: proxy: scoreboard %q: want host:port", s)
		}
	}
	var b strings.Builder
	b.WriteString("# nginx in front of zertzboard scoreboards (written by package hall; docs/HALL.md).\n")
	b.WriteString("upstream zertzboard_scoreboards {\n")
	for _, s := range p.Scoreboards {
		fmt.Fprintf(&b, "    server %s max_fails=1 fail_timeout=5s;\n", s)
	}
	b.WriteString("    keepalive 64;\n}\n\n")
	b.WriteString("# The console keeps its sessions in one process; the others stand by.\nupstream zertzboard_console {\n")
	for i, s := range p.Scoreboards {
		backup := ""
		if i > 0 {
			backup = " backup"
		}
		fmt.Fprintf(&b, "    server %s%s;\n", s, backup)
	}
	b.WriteString("    keepalive 8;\n}\n\n")
	fmt.Fprintf(&b, `server {
    listen %s;
    server_name _;

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    # A scoreboard that is down: try the next one.
    proxy_next_upstream error timeout http_502 http_503;
    proxy_connect_timeout 2s;
    add_header X-Scoreboard $upstream_addr always;
    gzip off;

    # Server-sent events: unbuffered, open as long as the viewer watches.
    location = /events {
        proxy_pass http://zertzboard_scoreboards;
        proxy_buffering off;
        proxy_cache off;
        proxy_read_timeout 24h;
        proxy_send_timeout 24h;
    }

    location /console {
        proxy_pass http://zertzboard_console;
        proxy_buffering off;
        proxy_read_timeout 24h;
        proxy_send_timeout 24h;
    }

    location / {
        proxy_pass http://zertzboard_scoreboards;
    }
}
`, p.Listen)
	return b.String(), nil
}
