package main

import (
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The scoreboard serves on a Unix socket (--http unix:PATH) for a proxy on
// the same machine: its pages and streams answer there, a socket left by
// a process that died is replaced, and a path that is not a socket, or
// that a running scoreboard serves, is refused with its name.
func TestScoreboardOnUnixSocket(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "sb.sock")
	// A socket left behind: listening, then the file kept.
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Stat(sock); err != nil {
		t.Fatal(err)
	}
	broker := "tcp://127.0.0.1:1" // never reached: the pages answer anyway
	p := startScoreboardOn(t, "unix:"+sock, "--broker", broker, "--console=false")
	resp, err := p.get("/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<html") {
		t.Fatalf("GET / on the socket: %s\n%.300s", resp.Status, body)
	}
	// Served already: a second scoreboard must not take the socket.
	if _, err := listenHTTP("unix:" + sock); err == nil || !strings.Contains(err.Error(), sock) {
		t.Errorf("a second listener on a served socket: %v", err)
	}
	file := filepath.Join(dir, "plain")
	os.WriteFile(file, []byte("x"), 0o644)
	if _, err := listenHTTP("unix:" + file); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("a plain file as the socket: %v", err)
	}
	if _, err := listenHTTP("unix:"); err == nil {
		t.Error("unix: without a path accepted")
	}
}
