// Package logguard bounds what reaches a log: a slog.Handler wrapper that
// clips every value, never formats a large one, and rate-limits warnings
// per source, so that no client on the network can write a long line or
// many lines. A board's log lives on an SD card and in the journal of
// systemd; a hostile client must not be able to fill either.
//
// Layer: base. May import: base.
package logguard

import (
	"context"
	"fmt"
	"log/slog"
	"reflect"
	"strconv"
	"sync"
	"time"
)

// Options configure a Handler. The zero value uses the defaults.
type Options struct {
	// MaxValue bounds one attribute value or message, in bytes (default
	// 160). Byte slices are never logged, only their length.
	MaxValue int
	// MaxAttrs bounds the attributes of one record (default 16).
	MaxAttrs int
	// Burst and Every rate-limit records at Warn and above per source: a
	// source may log Burst lines at once, then one per Every (defaults 5
	// and 10s). The lines it could not log are counted in the next one
	// ("suppressed"). All sources together get ten times as much.
	Burst int
	Every time.Duration
	// Keys are the attributes that name a source, tried in order
	// (default "client", "remote", "user"); a record without one is
	// keyed by its message alone.
	Keys []string
	Now  func() time.Time // nil means time.Now
}

// maxSources bounds the per-source table; beyond it only the global
// limit applies to new sources.
const maxSources = 1024

// New wraps h.
func New(h slog.Handler, o *Options) slog.Handler {
	var opt Options
	if o != nil {
		opt = *o
	}
	if opt.MaxValue <= 0 {
		opt.MaxValue = 160
	}
	if opt.MaxAttrs <= 0 {
		opt.MaxAttrs = 16
	}
	if opt.Burst <= 0 {
		opt.Burst = 5
	}
	if opt.Every <= 0 {
		opt.Every = 10 * time.Second
	}
	if opt.Keys == nil {
		opt.Keys = []string{"client", "remote", "user"}
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &handler{inner: h, opt: &opt, lim: &limits{sources: map[string]*bucket{}}}
}

type handler struct {
	inner slog.Handler
	opt   *Options
	lim   *limits // shared by the handlers WithAttrs and WithGroup derive
}

type limits struct {
	mu      sync.Mutex
	sources map[string]*bucket
	global  bucket
}

// bucket is a token bucket: tokens refill at one per Every up to Burst.
type bucket struct {
	tokens     float64
	last       time.Time
	suppressed int
}

func (b *bucket) take(now time.Time, burst int, every time.Duration) bool {
	if b.last.IsZero() {
		b.tokens = float64(burst)
	} else {
		b.tokens += float64(now.Sub(b.last)) / float64(every)
		if b.tokens > float64(burst) {
			b.tokens = float64(burst)
		}
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	if len(as) > h.opt.MaxAttrs {
		as = as[:h.opt.MaxAttrs]
	}
	clean := make([]slog.Attr, len(as))
	for i, a := range as {
		clean[i] = h.attr(a, 0)
	}
	return &handler{inner: h.inner.WithAttrs(clean), opt: h.opt, lim: h.lim}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{inner: h.inner.WithGroup(h.clip(name)), opt: h.opt, lim: h.lim}
}

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	suppressed := 0
	if r.Level >= slog.LevelWarn {
		var ok bool
		if suppressed, ok = h.allow(r); !ok {
			return nil
		}
	}
	out := slog.NewRecord(r.Time, r.Level, h.clip(r.Message), r.PC)
	n := 0
	r.Attrs(func(a slog.Attr) bool {
		if n == h.opt.MaxAttrs {
			out.AddAttrs(slog.Int("attrs_dropped", r.NumAttrs()-n))
			return false
		}
		out.AddAttrs(h.attr(a, 0))
		n++
		return true
	})
	if suppressed > 0 {
		out.AddAttrs(slog.Int("suppressed", suppressed))
	}
	return h.inner.Handle(ctx, out)
}

// allow applies the rate limits; it returns how many lines of this
// source were suppressed since its last line.
func (h *handler) allow(r slog.Record) (int, bool) {
	key := r.Message
	r.Attrs(func(a slog.Attr) bool {
		for _, k := range h.opt.Keys {
			if a.Key == k {
				key += "\x00" + h.clip(a.Value.String())
				return false
			}
		}
		return true
	})
	now := h.opt.Now()
	l := h.lim
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.global.take(now, 10*h.opt.Burst, h.opt.Every/10) {
		if b := l.sources[key]; b != nil {
			b.suppressed++
		}
		return 0, false
	}
	b := l.sources[key]
	if b == nil {
		if len(l.sources) >= maxSources {
			l.prune(now, h.opt)
		}
		if len(l.sources) >= maxSources {
			return 0, true // the global limit still holds
		}
		b = &bucket{}
		l.sources[key] = b
	}
	if !b.take(now, h.opt.Burst, h.opt.Every) {
		b.suppressed++
		return 0, false
	}
	n := b.suppressed
	b.suppressed = 0
	return n, true
}

// prune forgets sources whose bucket has refilled: they are back to the
// state of a new source.
func (l *limits) prune(now time.Time, o *Options) {
	full := time.Duration(o.Burst) * o.Every
	for k, b := range l.sources {
		if now.Sub(b.last) >= full && b.suppressed == 0 {
			delete(l.sources, k)
		}
	}
}

func (h *handler) clip(s string) string {
	if len(s) <= h.opt.MaxValue {
		return s
	}
	cut := h.opt.MaxValue
	for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

func (h *handler) attr(a slog.Attr, depth int) slog.Attr {
	a.Key = h.clip(a.Key)
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.clip(v.String()))
	case slog.KindGroup:
		g := v.Group()
		if depth > 2 {
			return slog.String(a.Key, fmt.Sprintf("<group of %d>", len(g)))
		}
		if len(g) > h.opt.MaxAttrs {
			g = g[:h.opt.MaxAttrs]
		}
		out := make([]any, len(g))
		for i, x := range g {
			out[i] = h.attr(x, depth+1)
		}
		return slog.Group(a.Key, out...)
	case slog.KindAny:
		return slog.String(a.Key, h.value(v.Any()))
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// value formats x only when it is small: formatting a 50 MB packet to clip
// it afterwards would cost the memory the limit is there to save.
func (h *handler) value(x any) string {
	switch x := x.(type) {
	case nil:
		return "<nil>"
	case []byte:
		return fmt.Sprintf("[%d bytes]", len(x))
	case error:
		return h.clip(x.Error())
	case fmt.Stringer:
		return h.clip(x.String())
	}
	budget := 4 * h.opt.MaxValue
	if n := approxSize(reflect.ValueOf(x), budget, 0); n > budget {
		return fmt.Sprintf("<%T, about %d bytes: not logged>", x, n)
	}
	return h.clip(fmt.Sprint(x))
}

// approxSize estimates the printed size of v, stopping once it passes
// budget.
func approxSize(v reflect.Value, budget, depth int) int {
	if !v.IsValid() {
		return 5
	}
	if depth > 8 {
		return budget + 1
	}
	switch v.Kind() {
	case reflect.String:
		return v.Len()
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return 4 * v.Len() // printed in decimal
		}
		n := 2
		for i := 0; i < v.Len() && n <= budget; i++ {
			n += 1 + approxSize(v.Index(i), budget-n, depth+1)
		}
		return n
	case reflect.Map:
		n := 2
		it := v.MapRange()
		for n <= budget && it.Next() {
			n += 2 + approxSize(it.Key(), budget-n, depth+1) + approxSize(it.Value(), budget-n, depth+1)
		}
		return n
	case reflect.Struct:
		n := 2
		for i := 0; i < v.NumField() && n <= budget; i++ {
			n += 1 + approxSize(v.Field(i), budget-n, depth+1)
		}
		return n
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 5
		}
		return approxSize(v.Elem(), budget, depth+1)
	}
	return 8
}
