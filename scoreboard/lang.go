package scoreboard

import (
	"fmt"
	"net/http"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/scoreboard/stream"
	"github.com/zertzboard/zertzboard/scoreboard/view"
)

// Pages in five languages. A page's language is ?lang=, else the
// browser's Accept-Language, else English. The hub renders each change
// once in English, as before, and once more in every other language that
// at least one open stream uses; a language nobody watches costs nothing.

// pageLang is the language a request asks for; an unknown ?lang= is an
// error naming the choices.
func pageLang(r *http.Request) (i18n.Lang, error) {
	if q := r.URL.Query().Get("lang"); q != "" {
		l, err := i18n.Parse(q)
		if err != nil {
			return "", fmt.Errorf("scoreboard: ?lang=: %w", err)
		}
		return l, nil
	}
	return i18n.FromAcceptLanguage(r.Header.Get("Accept-Language")), nil
}

// langLink is one entry of the page's language picker.
type langLink struct {
	Lang    i18n.Lang
	Name    string
	URL     string
	Current bool
}

// langLinks are the page's URL in every language, keeping its other
// parameters (board, overlay).
func langLinks(r *http.Request, cur i18n.Lang) []langLink {
	links := make([]langLink, len(i18n.All))
	for i, l := range i18n.All {
		q := r.URL.Query()
		q.Set("lang", string(l))
		links[i] = langLink{Lang: l, Name: l.Name(), URL: r.URL.Path + "?" + q.Encode(), Current: l == cur}
	}
	return links
}

// currentFrameLang is currentFrame in language l.
func (s *Server) currentFrameLang(board string, l i18n.Lang) (*stream.Frame, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.currentLangLocked(board, l), board == "" || s.boards[board] != nil
}

// langViews are one non-English language's rendered views.
type langViews struct {
	clients int                      // open streams in this language
	boards  map[string]*stream.Frame // by board ID
	index   *stream.Frame            // the tournament view; nil until rendered
}

// langLocked returns the views of l, made when its first stream opens.
func (s *Server) langLocked(l i18n.Lang) *langViews {
	if s.langs == nil {
		s.langs = map[i18n.Lang]*langViews{}
	}
	lv := s.langs[l]
	if lv == nil {
		lv = &langViews{boards: map[string]*stream.Frame{}}
		s.langs[l] = lv
	}
	return lv
}

// translateLocked renders board id's view (and the tournament view, if
// it changed) again in every language whose streams show it, and sends
// them; each language's frames patch its own previous ones. A view nobody
// watches in a language is dropped, and rendered whole when someone does.
func (s *Server) translateLocked(id string, indexChanged bool) {
	for l, lv := range s.langs {
		if s.watchedLocked(id, l) {
			if bv := s.boards[id]; bv != nil {
				v := bv.Board
				v.Lang = l
				lv.boards[id] = s.hub.NewFrameLocked(lv.boards[id], bv.seq(), view.BoardTree(v))
			} else {
				delete(lv.boards, id)
			}
			s.broadcastLangLocked(id, l, s.currentLangLocked(id, l))
		} else {
			delete(lv.boards, id)
		}
		if !indexChanged {
			continue
		}
		if s.watchedLocked("", l) {
			lv.index = s.renderIndexLangLocked(l, lv.index)
			s.broadcastLangLocked("", l, lv.index)
		} else {
			lv.index = nil
		}
	}
}

// watchedLocked reports whether a stream shows board in language l.
func (s *Server) watchedLocked(board string, l i18n.Lang) bool {
	return s.hub.WatchedLocked(stream.Topic{View: board, Lang: string(l)})
}

// currentLangLocked is the view of board in language l; English is the
// hub's own.
func (s *Server) currentLangLocked(board string, l i18n.Lang) *stream.Frame {
	if l == "" || l == i18n.EN {
		return s.currentLocked(board)
	}
	lv := s.langLocked(l)
	if board == "" {
		if lv.index == nil {
			lv.index = s.renderIndexLangLocked(l, nil)
			lv.index.Made = s.index.Made // its clocks are as of then
		}
		return lv.index
	}
	if f := lv.boards[board]; f != nil {
		return f
	}
	bv := s.boards[board]
	if bv == nil || bv.frame == nil {
		return s.waitingFrame(board, l)
	}
	v := bv.Board
	v.Lang = l
	f := s.hub.NewFrameLocked(nil, bv.seq(), view.BoardTree(v))
	f.Made = bv.frame.Made // the view, clocks and all, is as of the English one's data
	lv.boards[board] = f
	return f
}

// broadcastLangLocked queues f for the clients of board in language l.
func (s *Server) broadcastLangLocked(board string, l i18n.Lang, f *stream.Frame) {
	s.hub.BroadcastLocked(stream.Topic{View: board, Lang: string(l)}, f)
}

// subscribeLang is subscribe for a stream in language l.
func (s *Server) subscribeLang(board string, l i18n.Lang) (*stream.Client, *stream.Frame) {
	if l == i18n.EN {
		l = ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil
	}
	c := s.hub.SubscribeLocked(stream.Topic{View: board, Lang: string(l)})
	if c == nil {
		return nil, nil
	}
	if l == "" {
		return c, s.currentLocked(board)
	}
	s.langLocked(l).clients++
	return c, s.currentLangLocked(board, l)
}

// leftLocked forgets a language's views when its last stream closes.
func (s *Server) leftLocked(t stream.Topic) {
	if t.Lang == "" {
		return
	}
	if lv := s.langs[i18n.Lang(t.Lang)]; lv != nil {
		if lv.clients--; lv.clients <= 0 {
			delete(s.langs, i18n.Lang(t.Lang))
			s.signalLocked()
		}
	}
}
