package scoreboard

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	qr "github.com/piglig/go-qr"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/scoreboard/view"
)

// The spectator link: the tournament view's address as a QR code (made
// here, in Go, by github.com/piglig/go-qr: no service on the Internet),
// shown in the tournament view's corner and on a printable "watch live"
// card for the hall's tables and doors.
//
//	GET /watch          the card (?url= another address to show)
//	GET /watch/qr.svg   the QR code alone (?url= likewise)
//
// The address is the one the browser used to reach the scoreboard (its
// Host), so a card printed from a LAN address carries that address; a
// reverse proxy's public address can be given with ?url=.

// maxSpectatorURL bounds ?url=: a QR code of medium correction holds
// about 2 kB, but a card needs a short, readable address.
const maxSpectatorURL = 200

// spectatorURL is the address the card shows: ?url= if given (http or
// https, at most maxSpectatorURL bytes), else this scoreboard's root as
// the request reached it.
func spectatorURL(r *http.Request) (string, error) {
	if v := r.URL.Query().Get("url"); v != "" {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(v) > maxSpectatorURL || !utf8.ValidString(v) {
			return "", fmt.Errorf("url=%q: want an http:// or https:// address of at most %d bytes", view.ClipText(v, 60), maxSpectatorURL)
		}
		return v, nil
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + "/", nil
}

// qrSVG draws text as a QR code (medium error correction, a quiet zone of
// four modules), as one SVG path of dark modules.
func qrSVG(text, label string) (string, error) {
	code, err := qr.EncodeText(text, qr.Medium)
	if err != nil {
		return "", err
	}
	const quiet = 4
	n := code.Size()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="0 0 %d %d" shape-rendering="crispEdges" role="img" aria-label="%s"><rect width="100%%" height="100%%" fill="#fff"/><path fill="#000" d="`,
		n+2*quiet, n+2*quiet, view.Esc(label))
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if !code.Module(x, y) {
				continue
			}
			// Runs of dark modules on a row are one rectangle.
			run := 1
			for x+run < n && code.Module(x+run, y) {
				run++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", x+quiet, y+quiet, run, run)
			x += run - 1
		}
	}
	b.WriteString(`"/></svg>`)
	return b.String(), nil
}

// watchPages is the card's template in each language.
var watchPages = pageTemplates("web/watch.html")

func (s *Server) spectatorRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /watch/qr.svg", func(w http.ResponseWriter, r *http.Request) {
		u, err := spectatorURL(r)
		if err != nil {
			http.Error(w, "scoreboard: "+err.Error(), http.StatusBadRequest)
			return
		}
		svg, err := qrSVG(u, u)
		if err != nil {
			http.Error(w, "scoreboard: "+err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Cache-Control", "no-store")
		w.Write([]byte(svg))
	})
	mux.HandleFunc("GET /watch", langChecked(func(w http.ResponseWriter, r *http.Request) {
		l := opsLang(r)
		u, err := spectatorURL(r)
		if err != nil {
			http.Error(w, "scoreboard: "+err.Error(), http.StatusBadRequest)
			return
		}
		svg, err := qrSVG(u, u)
		if err != nil {
			http.Error(w, "scoreboard: "+err.Error(), http.StatusBadRequest)
			return
		}
		d := struct {
			Lang  i18n.Lang
			Langs []opsLangLink
			URL   string
			QR    template.HTML
			Home  string
		}{l, opsLangLinks(r, l), u, template.HTML(svg), withLang("/", l)}
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")
		if err := watchPages[l].Execute(w, d); err != nil {
			s.log.Debug("scoreboard: writing the watch card", "err", err)
		}
	}))
}
