package scoreboard

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
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
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // to end its helpers with it
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	b := &browser{t: t, cmd: cmd}
	t.Cleanup(func() {
		if b.ws != nil {
			b.ws.Close()
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		logf.Close()
	})
	// Chromium writes its port to DevToolsActivePort once it listens.
	var port string
	deadline := time.Now().Add(wait)
	for {
		if data, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort")); err == nil {
			if p, _, ok := strings.Cut(string(data), "\n"); ok && p != "" {
				port = p
				break
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("chromium did not open its DevTools port; its log:\n%s", log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	var targets []struct {
		Type string `json:"type"`
		WS   string `json:"webSocketDebuggerUrl"`
	}
	for {
		resp, err := http.Get("http://127.0.0.1:" + port + "/json/list")
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
		}
		if err == nil {
			for _, tg := range targets {
				if tg.Type == "page" {
					b.ws, _, err = websocket.DefaultDialer.Dial(tg.WS, nil)
					if err != nil {
						t.Fatal(err)
					}
					b.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil)
					return b
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no page target in chromium: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
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

// waitFor polls a JavaScript condition in the page until it holds, up to
// the test's wait.
func (b *browser) waitFor(what, cond string) {
	b.t.Helper()
	var ok bool
	b.eval(fmt.Sprintf(`new Promise((resolve) => {
		const end = performance.now() + %d;
		const poll = () => {
			let v = false;
			try { v = !!(%s); } catch (e) {}
			if (v) return resolve(true);
			if (performance.now() > end) return resolve(false);
			setTimeout(poll, 5);
		};
		poll();
	})`, wait.Milliseconds(), cond), &ok)
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
