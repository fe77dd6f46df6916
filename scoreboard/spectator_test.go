package scoreboard

import (
	"image"
	"image/color"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	qr "github.com/piglig/go-qr"
)

// rasterQR draws the SVG qrSVG wrote (its viewBox and the path's runs of
// dark modules) at 8 pixels a module, for the QR decoder.
func rasterQR(t *testing.T, svg string) image.Image {
	t.Helper()
	vb := regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`).FindStringSubmatch(svg)
	if vb == nil {
		t.Fatalf("no viewBox in %.200s", svg)
	}
	n, _ := strconv.Atoi(vb[1])
	const px = 8
	img := image.NewGray(image.Rect(0, 0, n*px, n*px))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	runs := regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`).FindAllStringSubmatch(svg, -1)
	if len(runs) == 0 {
		t.Fatalf("no modules in %.200s", svg)
	}
	for _, r := range runs {
		x, _ := strconv.Atoi(r[1])
		y, _ := strconv.Atoi(r[2])
		w, _ := strconv.Atoi(r[3])
		for yy := y * px; yy < (y+1)*px; yy++ {
			for xx := x * px; xx < (x+w)*px; xx++ {
				img.SetGray(xx, yy, color.Gray{})
			}
		}
	}
	return img
}

// TestSpectatorQR: the QR code, decoded, is the scoreboard's address as
// the browser reached it, or the ?url= given; a bad ?url= is refused
// naming it; the card shows the address and the code.
func TestSpectatorQR(t *testing.T) {
	s := New(Options{Logger: testLogger(t)})
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	get := func(path, host string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, c := range []struct{ path, host, want string }{
		{"/watch/qr.svg", "hall.local:8080", "http://hall.local:8080/"},
		{"/watch/qr.svg?url=https%3A%2F%2Fzertz.example.org%2Fevent%3Fround%3D3", "", "https://zertz.example.org/event?round=3"},
	} {
		code, svg := get(c.path, c.host)
		if code != http.StatusOK {
			t.Fatalf("%s: %d %s", c.path, code, svg)
		}
		got, err := qr.Decode(rasterQR(t, svg))
		if err != nil || got != c.want {
			t.Errorf("%s: the QR code reads %q, %v; want %q", c.path, got, err, c.want)
		}
	}
	for _, bad := range []string{"javascript:alert(1)", "ftp://x/", "http://" + strings.Repeat("a", 300)} {
		code, body := get("/watch/qr.svg?url="+bad, "")
		if code != http.StatusBadRequest || !strings.Contains(body, "url=") {
			t.Errorf("url=%.40s: %d %q; want 400 naming url=", bad, code, body)
		}
	}
	code, page := get("/watch?lang=de", "hall.local")
	if code != http.StatusOK || !strings.Contains(page, `<svg xmlns="http://www.w3.org/2000/svg" class="qr"`) ||
		!strings.Contains(page, `>http://hall.local/</a>`) || !strings.Contains(page, "Live verfolgen") {
		t.Errorf("the card: %d %.800s", code, page)
	}
	// The tournament view links the card, with the code in its corner.
	if _, index := get("/", ""); !strings.Contains(index, `href="/watch?lang=en"`) || !strings.Contains(index, `src="/watch/qr.svg"`) {
		t.Errorf("the tournament view lacks the spectator link: %.800s", index)
	}
}
