package display

import (
	"strings"

	"github.com/zertzboard/zertzboard/i18n"
	"github.com/zertzboard/zertzboard/referee"
)

// Speaker says the referee's messages in a language.
type Speaker struct {
	Lang i18n.Lang
	// Names replace the player labels ("P0", "S0", ...) when not empty.
	Names [2]string
	// Short says each message's "short." form where the catalogue has
	// one, for the 18-column status screen, and clips names to NameMax
	// runes (0: no clipping).
	Short   bool
	NameMax int
}

// Say renders m: the catalogue's text for m.Key in s.Lang with the
// arguments said the same way. English keeps the referee's own wording
// when the message carries one (an engine reason that names cells).
func (s Speaker) Say(m referee.Message) string {
	if m.Text != "" && (s.Lang == i18n.EN || !i18n.Has(m.Key)) && !s.Short {
		return m.Text
	}
	if m.Key == "guide.player" && len(m.Args) == 1 {
		if p, ok := m.Args[0].(int); ok && (p == 0 || p == 1) && s.Names[p] != "" {
			n := s.Names[p]
			if s.NameMax > 0 {
				n = clip(n, s.NameMax)
			}
			return n
		}
	}
	key := m.Key
	if s.Short && i18n.Has("short."+key) {
		key = "short." + key
	}
	if !i18n.Has(key) {
		return m.English()
	}
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		switch a := a.(type) {
		case referee.Message:
			args[i] = s.Say(a)
		case []referee.Message:
			parts := make([]string, len(a))
			for j, p := range a {
				parts[j] = s.Say(p)
			}
			args[i] = strings.Join(parts, ", ")
		default:
			args[i] = a
		}
	}
	return s.Lang.T(key, args...)
}

// SayAll says a status line's parts, joined with "; ".
func (s Speaker) SayAll(parts []referee.Message) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = s.Say(p)
	}
	return strings.Join(out, "; ")
}
