package view

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Overlay layouts for stream software (an OBS browser source), chosen in a
// page's query:
//
//	overlay=1        the transparent overlay (layout= implies it)
//	layout=full      the board and the players' panel (the default)
//	layout=board     the board alone
//	layout=panel     the players' panel alone (clocks, captures, pool, moves)
//	layout=lowerthird  the players side by side in a strip along the bottom
//	scale=S          text and panel sizes times S (0.5 to 3; default 1)
//	analysis=0       no forced-win line, banner or evaluation
//	clocks=0         no clocks
//	eval=1           the engine's evaluation bar (any page)
//
// The view itself is the same for every viewer (one rendering, one patch
// per change): these only set classes on the page's body, which the style
// sheet follows.

// Layouts are the overlay's layouts, the first the default.
var Layouts = []string{"full", "board", "panel", "lowerthird"}

// Scale bounds.
const (
	minScale = 0.5
	maxScale = 3.0
)

// OverlayOptions are a page's display options.
type OverlayOptions struct {
	Overlay    bool
	Eval       bool   // ?eval=1: show the engine's evaluation bar
	Layout     string // one of Layouts ("full" unless overlay)
	Scale      string // "" for 1, else the number as given
	NoAnalysis bool
	NoClocks   bool
}

// BodyClass is the classes the page's body gets for these options.
func (o OverlayOptions) BodyClass() string {
	var c []string
	if o.Overlay {
		c = append(c, "overlay", "layout-"+o.Layout)
	}
	if o.Eval {
		c = append(c, "eval")
	}
	if o.NoAnalysis {
		c = append(c, "noanalysis")
	}
	if o.NoClocks {
		c = append(c, "noclocks")
	}
	return strings.Join(c, " ")
}

// ParseOverlay reads the display options of a page's query; an error
// names the parameter and what it takes.
func ParseOverlay(q url.Values) (OverlayOptions, error) {
	var o OverlayOptions
	var err error
	flag := func(name string, def bool) bool {
		v := q.Get(name)
		switch strings.ToLower(v) {
		case "":
			return def
		case "1", "true", "yes", "on":
			return true
		case "0", "false", "no", "off":
			return false
		}
		if err == nil {
			err = fmt.Errorf("%s=%q: want 1 or 0", name, ClipText(v, 40))
		}
		return def
	}
	o.Overlay = flag("overlay", false)
	o.Eval = flag("eval", false)
	o.NoAnalysis = !flag("analysis", true)
	o.NoClocks = !flag("clocks", true)
	if err != nil {
		return o, err
	}
	o.Layout = "full"
	if v := q.Get("layout"); v != "" {
		ok := false
		for _, l := range Layouts {
			if strings.EqualFold(v, l) {
				o.Layout, ok = l, true
			}
		}
		if !ok {
			return o, fmt.Errorf("layout=%q: want one of %s", ClipText(v, 40), strings.Join(Layouts, ", "))
		}
		o.Overlay = true
	}
	if v := q.Get("scale"); v != "" {
		f, perr := strconv.ParseFloat(v, 64)
		if perr != nil || !(f >= minScale && f <= maxScale) {
			return o, fmt.Errorf("scale=%q: want a number from %g to %g (1 is the normal size)", ClipText(v, 40), minScale, maxScale)
		}
		o.Scale = strconv.FormatFloat(f, 'f', -1, 64)
	}
	return o, nil
}
