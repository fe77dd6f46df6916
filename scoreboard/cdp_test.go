package scoreboard

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// A minimal Chrome DevTools Protocol client: enough to drive headless
// Chromium from a test (navigate, evaluate, screenshot) without a
// dependency beyond the WebSocket package the broker already uses.

// findChromium returns the browser to drive: $ZERTZBOARD_CHROMIUM, or
// Debian's chromium. Without one the test is skipped, unless CI is set.
func findChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ZERTZBOARD_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on PATH (apt-get install chromium); CI requires the browser test")
	}
	t.Skip("no chromium on PATH (apt-get install chromium)")
	return ""
}

type browser struct {
	t   *testing.T
	cmd *exec.Cmd
	ws  *websocket.Conn
	id  int
}

// startBrowser launches headless Chromium with a fresh profile and
// connects to its first page.
func startBrowser(t *testing.T, width, height int) *browser {
	t.Helper()
	bin := findChromium(t)
	dir := t.TempDir()
	profile := filepath.Join(dir, "profile")
	logf, err := os.Create(filepath.Join(dir, "chromium.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--mute-audio", "--user-data-dir="+profile, "--remote-debugging-port=0",
		fmt.Sprintf("--window-size=%d,%d", width, height), "about:blank")
	// Chromium says on stderr where its DevTools endpoint listens; the
	// log keeps the rest.
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // to end its helpers with it
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	listening := make(chan string, 1)
	exited := make(chan struct{}) // stderr closed: chromium is gone
	go func() {
		defer close(exited)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(logf, line)
			if u, ok := strings.CutPrefix(line, "DevTools listening on "); ok {
				select {
				case listening <- strings.TrimSpace(u):
				default:
				}
			}
		}
		io.Copy(logf, stderr) // a line too long for the scanner: keep draining
	}()
	b := &browser{t: t, cmd: cmd}
	t.Cleanup(func() {
		if b.ws != nil {
			b.ws.Close()
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		cmd.Wait()
		logf.Close()
	})
	fail := func(format string, args ...any) {
		t.Helper()
		log, _ := os.ReadFile(logf.Name())
		t.Fatalf(format+"; its log:\n%s", append(args, log)...)
	}
	var browserURL string
	select {
	case browserURL = <-listening:
	case <-exited:
		fail("chromium ended before it opened its DevTools port")
	case <-time.After(wait):
		fail("chromium did not open its DevTools port")
	}
	// The browser reports each target it makes (Target.targetCreated),
	// the ones it has already made first: the first page is ours.
	bws, _, err := websocket.DefaultDialer.Dial(browserURL, nil)
	if err != nil {
		fail("the DevTools endpoint %s: %v", browserURL, err)
	}
	_ = bws.SetWriteDeadline(time.Now().Add(wait))
	_ = bws.SetReadDeadline(time.Now().Add(wait))
	if err := bws.WriteJSON(map[string]any{"id": 1, "method": "Target.setDiscoverTargets", "params": map[string]any{"discover": true}}); err != nil {
		fail("Target.setDiscoverTargets: %v", err)
	}
	var page string
	for page == "" {
		var m struct {
			Method string `json:"method"`
			Params struct {
				TargetInfo struct {
					ID   string `json:"targetId"`
					Type string `json:"type"`
				} `json:"targetInfo"`
			} `json:"params"`
		}
		if err := bws.ReadJSON(&m); err != nil {
			fail("no page target in chromium: %v", err)
		}
		if (m.Method == "Target.targetCreated" || m.Method == "Target.targetInfoChanged") && m.Params.TargetInfo.Type == "page" {
			page = m.Params.TargetInfo.ID
		}
	}
	bws.Close()
	host, _, _ := strings.Cut(strings.TrimPrefix(browserURL, "ws://"), "/")
	b.ws, _, err = websocket.DefaultDialer.Dial("ws://"+host+"/devtools/page/"+page, nil)
	if err != nil {
		fail("the page's DevTools endpoint: %v", err)
	}
	b.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil)
	return b
}

// call sends one command and decodes its result into out, skipping the
// events that arrive meanwhile.
func (b *browser) call(method string, params any, out any) {
	b.t.Helper()
	b.id++
	id := b.id
	_ = b.ws.SetWriteDeadline(time.Now().Add(wait))
	if err := b.ws.WriteJSON(map[string]any{"id": id, "method": method, "params": params}); err != nil {
		b.t.Fatalf("%s: %v", method, err)
	}
	_ = b.ws.SetReadDeadline(time.Now().Add(2 * wait))
	for {
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := b.ws.ReadJSON(&m); err != nil {
			b.t.Fatalf("%s: reading the reply: %v", method, err)
		}
		if m.ID != id {
			continue
		}
		if m.Error != nil {
			b.t.Fatalf("%s: %s", method, m.Error.Message)
		}
		if out != nil {
			if err := json.Unmarshal(m.Result, out); err != nil {
				b.t.Fatalf("%s: %v", method, err)
			}
		}
		return
	}
}

func (b *browser) navigate(url string) {
	b.t.Helper()
	var r struct {
		ErrorText string `json:"errorText"`
	}
	b.call("Page.navigate", map[string]any{"url": url}, &r)
	if r.ErrorText != "" {
		b.t.Fatalf("navigate %s: %s", url, r.ErrorText)
	}
}

// eval evaluates a JavaScript expression (awaiting a promise) and decodes
// its JSON value into out.
func (b *browser) eval(expr string, out any) {
	b.t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		Exception *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	b.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if r.Exception != nil {
		b.t.Fatalf("evaluating %.80q: %s %s", expr, r.Exception.Text, r.Exception.Exception.Description)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			b.t.Fatalf("evaluating %.80q: result %s: %v", expr, r.Result.Value, err)
		}
	}
}

// waitFor waits until a JavaScript condition holds in the page, up to
// the test's wait: it checks it again at each change of the document
// (a MutationObserver) and, for conditions on the page's script state
// that no change of the document follows, at the latest every 50 ms.
func (b *browser) waitFor(what, cond string) {
	b.t.Helper()
	var ok bool
	b.eval(awaitJS(cond, wait.Milliseconds()), &ok)
	if !ok {
		b.t.Fatalf("timed out waiting in the browser for %s (%s)", what, cond)
	}
}

// screenshot saves a PNG of the page in the test's temporary directory and,
// if $ZERTZBOARD_ARTIFACTS is set, there too. It returns the path.
func (b *browser) screenshot(name string) string {
	b.t.Helper()
	var r struct {
		Data string `json:"data"`
	}
	b.call("Page.captureScreenshot", map[string]any{"format": "png"}, &r)
	png, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		b.t.Fatal(err)
	}
	dir := os.Getenv("ZERTZBOARD_ARTIFACTS")
	if dir == "" {
		dir = b.t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot: %s", path)
	return path
}

// awaitJS is a script whose promise resolves to true once the expression
// cond holds, or to whether it holds after ms milliseconds. It checks cond
// again at each change of the document (a MutationObserver) and, for
// conditions on the page's script state that no change of the document
// follows, at the latest every 50 ms.
func awaitJS(cond string, ms int64) string {
	return fmt.Sprintf(`new Promise((resolve) => {
		const holds = () => { try { return !!(%s); } catch (e) { return false; } };
		if (holds()) return resolve(true);
		let backstop, timeout;
		const done = (v) => { obs.disconnect(); clearInterval(backstop); clearTimeout(timeout); resolve(v); };
		const check = () => { if (holds()) done(true); };
		const obs = new MutationObserver(check);
		obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
		backstop = setInterval(check, 50);
		timeout = setTimeout(() => done(holds()), %d);
	})`, cond, ms)
}
