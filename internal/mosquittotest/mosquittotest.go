// Package mosquittotest runs Debian's mosquitto for a test: on a free
// loopback port, with a generated configuration and, if asked, a password
// file and an ACL; it is killed (by its process handle) when the test ends,
// and its log is shown if the test failed. Without mosquitto the test is
// skipped, naming the package to install, except in CI (CI set), where it
// fails: CI installs it.
//
// Layer: base. May import: base.
package mosquittotest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Options set up the broker.
type Options struct {
	// Passwords are the accounts, user → password. None: no password
	// file, and anonymous clients are allowed.
	Passwords map[string]string
	// ACL is the text of an acl_file (mosquitto.conf(5)); "" for none.
	ACL string
	// Config, if set, writes the whole configuration for the port and
	// the two files' paths ("" when absent) instead of the default one.
	Config func(port int, passwordFile, aclFile string) string
}

// Bins finds mosquitto and mosquitto_passwd (Debian puts the broker in
// /usr/sbin, not on every user's PATH), or skips the test.
func Bins(t testing.TB) (broker, passwd string) {
	t.Helper()
	for _, p := range []string{"mosquitto", "/usr/sbin/mosquitto"} {
		if q, err := exec.LookPath(p); err == nil {
			broker = q
			break
		}
	}
	for _, p := range []string{"mosquitto_passwd", "/usr/bin/mosquitto_passwd"} {
		if q, err := exec.LookPath(p); err == nil {
			passwd = q
			break
		}
	}
	if broker == "" || passwd == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("mosquitto or mosquitto_passwd is not installed; CI installs them (apt-get install -y mosquitto)")
		}
		t.Skip("mosquitto is not installed (apt-get install mosquitto); CI runs this test")
	}
	return broker, passwd
}

// Start runs mosquitto and returns its address, host:port, once it
// accepts connections.
func Start(t testing.TB, o Options) string {
	t.Helper()
	return Launch(t, o).Addr()
}

// Broker is a running mosquitto that a test may stop and start again on
// the same port, with the same configuration (and, if that configuration
// says so, the same persistence directory).
type Broker struct {
	t    testing.TB
	bin  string
	conf string
	addr string
	log  *logBuffer

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	err    error
}

// Launch runs mosquitto like Start and returns it; it is killed when the
// test ends.
func Launch(t testing.TB, o Options) *Broker {
	t.Helper()
	bin, passwd := Bins(t)
	dir := t.TempDir()
	var pwFile, aclFile string
	if len(o.Passwords) > 0 {
		var pw strings.Builder
		users := make([]string, 0, len(o.Passwords))
		for u := range o.Passwords {
			users = append(users, u)
		}
		slices.Sort(users)
		for _, u := range users {
			fmt.Fprintf(&pw, "%s:%s\n", u, o.Passwords[u])
		}
		pwFile = filepath.Join(dir, "passwd")
		if err := os.WriteFile(pwFile, []byte(pw.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(passwd, "-U", pwFile).CombinedOutput(); err != nil { // hashes the passwords in place
			t.Fatalf("mosquitto_passwd -U: %v\n%s", err, out)
		}
	}
	if o.ACL != "" {
		aclFile = filepath.Join(dir, "acl")
		if err := os.WriteFile(aclFile, []byte(o.ACL), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	port := FreePort(t)
	var body string
	if o.Config != nil {
		body = o.Config(port, pwFile, aclFile)
	} else {
		body = fmt.Sprintf("per_listener_settings false\nlistener %d 127.0.0.1\npersistence false\nlog_dest stderr\n", port)
		if pwFile == "" {
			body += "allow_anonymous true\n"
		} else {
			body += "allow_anonymous false\npassword_file " + pwFile + "\n"
		}
		if aclFile != "" {
			body += "acl_file " + aclFile + "\n"
		}
	}
	if os.Geteuid() == 0 {
		// Started as root, mosquitto becomes user mosquitto before it reads
		// the password and ACL files (and writes its persistence), which
		// the test's private directory hides from that user.
		body += "user root\n"
	}
	conf := filepath.Join(dir, "mosquitto.conf")
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	b := &Broker{t: t, bin: bin, conf: conf, addr: fmt.Sprintf("127.0.0.1:%d", port), log: &logBuffer{}}
	t.Cleanup(func() {
		b.kill()
		if t.Failed() {
			t.Logf("mosquitto (%s) log:\n%s", b.addr, b.log.String())
		}
	})
	b.Start()
	return b
}

// FreePort returns a loopback TCP port that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Addr is the broker's host:port.
func (b *Broker) Addr() string { return b.addr }

// Log is what the broker has logged so far.
func (b *Broker) Log() string { return b.log.String() }

// Start starts the broker (again) and returns once it accepts
// connections.
func (b *Broker) Start() {
	t := b.t
	t.Helper()
	b.mu.Lock()
	if b.cmd != nil {
		b.mu.Unlock()
		t.Fatal("mosquittotest: Start while the broker runs")
	}
	cmd := exec.Command(b.bin, "-c", b.conf)
	cmd.Stdout, cmd.Stderr = b.log, b.log
	if err := cmd.Start(); err != nil {
		b.mu.Unlock()
		t.Fatalf("starting %s: %v", b.bin, err)
	}
	exited := make(chan struct{})
	b.cmd, b.exited = cmd, exited
	go func() {
		err := cmd.Wait()
		b.mu.Lock()
		b.err = err
		b.mu.Unlock()
		close(exited)
	}()
	b.mu.Unlock()
	deadline := time.Now().Add(30 * time.Second) // a guard against a hang, not a timing
	for {
		c, err := net.DialTimeout("tcp", b.addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-exited:
			b.mu.Lock()
			err := b.err
			b.mu.Unlock()
			t.Fatalf("mosquitto exited: %v\n%s", err, b.log.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("mosquitto not listening on %s:\n%s", b.addr, b.log.String())
		}
	}
}

// Stop ends the broker with SIGTERM, as a service stop does (mosquitto
// then writes its persistence, if configured), and waits for it.
func (b *Broker) Stop() {
	b.mu.Lock()
	cmd, exited := b.cmd, b.exited
	b.cmd = nil
	b.mu.Unlock()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGTERM) // the process this test started, by its handle
	select {
	case <-exited:
	case <-time.After(30 * time.Second): // a guard against a hang
		cmd.Process.Kill()
		<-exited
	}
}

// kill ends the broker at once, if it runs.
func (b *Broker) kill() {
	b.mu.Lock()
	cmd, exited := b.cmd, b.exited
	b.cmd = nil
	b.mu.Unlock()
	if cmd != nil {
		cmd.Process.Kill() // the process this test started, by its handle
		<-exited
	}
}

// logBuffer collects the broker's log, for failure messages: the first
// MiB is enough to tell what went wrong.
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
