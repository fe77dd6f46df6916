// Package nginxtest runs Debian's nginx for a test: in the foreground
// (daemon off), as a child process with its own prefix, configuration, pid
// file, logs and temporary files in the test's directory (no system
// configuration), on a free loopback port; it is killed (by its process
// handle) when the test ends, and its error log is shown if the test
// failed. Without nginx the test is skipped, naming the package to
// install, except in CI (CI set), where it fails: CI installs it.
//
// Layer: base. May import: base.
package nginxtest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Bin finds nginx (Debian puts it in /usr/sbin, not on every user's PATH),
// or skips the test.
func Bin(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"nginx", "/usr/sbin/nginx"} {
		if q, err := exec.LookPath(p); err == nil {
			return q
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("nginx is not installed; CI installs it (apt-get install -y nginx)")
	}
	t.Skip("nginx is not installed (apt-get install nginx); CI runs this test")
	return ""
}

// Options set nginx up.
type Options struct {
	// HTTP is the text inside nginx's http block for the listener's
	// port, e.g. hall.ProxyConfig's.
	HTTP func(port int) string
	// Connections is worker_connections (default 1024); a proxy uses two
	// per viewer.
	Connections int
	// Workers, if above 0, runs a master process and this many workers
	// (as a server does), for measurements; 0 runs one process that
	// serves.
	Workers int
}

// Start runs nginx and returns its address, host:port, once it accepts
// connections.
func Start(t testing.TB, o Options) string {
	t.Helper()
	bin := Bin(t)
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	if o.Connections <= 0 {
		o.Connections = 1024
	}
	conf := o.config(dir, port)
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	log := &logBuffer{}
	check := exec.Command(bin, "-t", "-q", "-p", dir, "-c", path, "-e", "stderr")
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("nginx -t: %v\n%s\n%s", err, out, conf)
	}
	cmd := exec.Command(bin, "-p", dir, "-c", path, "-e", "stderr")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM) // the process this test started, by its handle
		select {
		case <-exited:
		case <-time.After(10 * time.Second): // a guard against a hang
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("nginx log:\n%s", log.String())
		}
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	waitListening(t, addr, exited, func() error { return waitErr }, log)
	return addr
}

// config is nginx.conf for a test whose files are in dir, serving o on
// port.
func (o Options) config(dir string, port int) string {
	procs := "# One process, in the foreground: the process the test starts is the\n# one that serves (no workers left behind, no change of user).\nmaster_process off;\n"
	if o.Workers > 0 {
		// SIGTERM to the master ends its workers too.
		procs = fmt.Sprintf("master_process on;\nworker_processes %d;\n", o.Workers)
		if os.Geteuid() == 0 {
			procs += "user root;\n" // the workers use the test's private directory
		}
	}
	return fmt.Sprintf(`# nginx for a test (package nginxtest).
daemon off;
%spid %s;
error_log stderr warn;
worker_rlimit_nofile %d;
events { worker_connections %d; }
http {
    access_log off;
    client_body_temp_path %s;
    proxy_temp_path %s;
    fastcgi_temp_path %s;
    uwsgi_temp_path %s;
    scgi_temp_path %s;
%s
}
`, procs, filepath.Join(dir, "nginx.pid"), 2*o.Connections+64, o.Connections,
		filepath.Join(dir, "body"), filepath.Join(dir, "proxy"), filepath.Join(dir, "fastcgi"), filepath.Join(dir, "uwsgi"), filepath.Join(dir, "scgi"),
		o.HTTP(port))
}

// waitListening returns once addr accepts a connection, and fails the
// test if nginx exits first (waitErr says how) or never listens.
func waitListening(t testing.TB, addr string, exited <-chan struct{}, waitErr func() error, log *logBuffer) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // a guard against a hang, not a timing
	for {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-exited:
			t.Fatalf("nginx exited: %v\n%s", waitErr(), log.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx not listening on %s:\n%s", addr, log.String())
		}
	}
}

// logBuffer collects nginx's log (the first MiB).
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 1<<20 {
		return len(p), nil
	}
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
