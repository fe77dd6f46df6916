package wiring

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
)

// edit returns the reference wiring with old replaced by new (once).
func edit(t *testing.T, old, new string) string {
	t.Helper()
	s := string(ReferenceText())
	if !strings.Contains(s, old) {
		t.Fatalf("reference wiring has no %q", old)
	}
	return strings.Replace(s, old, new, 1)
}

func lineOf(s, sub string) int {
	return strings.Count(s[:strings.Index(s, sub)], "\n") + 1
}

func TestParseErrorsNameFileLineField(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		field, msg     string
	}{
		{"bad channel", "E5 = adc0 1 14", "E5 = adc0 9 14", "sockets.E5", "channel"},
		{"bad mux address", "E5 = adc0 1 14", "E5 = adc0 1 16", "sockets.E5", "mux address"},
		{"unknown adc", "E5 = adc0 1 14", "E5 = adc7 1 14", "sockets.E5", `unknown ADC "adc7"`},
		{"unknown socket", "E5 = adc0 1 14", "J5 = adc0 1 14", "sockets.J5", "no socket"},
		{"duplicate slot", "E5 = adc0 1 14", "E5 = adc0 0 0", "sockets.E5", "socket A1"},
		{"bad chip", "chip = mcp3208", "chip = mcp3004", "adc.adc0.chip", "unknown chip"},
		{"bad speed", "speed = 1MHz", "speed = fast", "adc.adc0.speed", "bad frequency"},
		{"speed above the chip's rating at 3.3V", "speed = 1MHz", "speed = 1.5MHz", "adc.adc0.speed", "above the MCP3208's 1MHz maximum at VDD 3.3"},
		{"speed above the chip's rating at 5V", "speed = 1MHz\nvref = 3.3V\nvdd = 3.3V", "vref = 3.3V\nvdd = 5V\nspeed = 3MHz", "adc.adc0.speed", "above the MCP3208's 2MHz maximum at VDD 5"},
		{"supply out of range", "vdd = 3.3V", "vdd = 12V", "adc.adc0.vdd", "2.7V to 5.5V"},
		{"three select lines", "select = GPIO5 GPIO6 GPIO13 GPIO26", "select = GPIO5 GPIO6 GPIO13", "mux.select", "want 4"},
		{"bad settle", "settle = 10us", "settle = 1h", "mux.settle", "settle"},
		{"unknown key", "settle = 10us", "setle = 10us", "mux.setle", "unknown key"},
		{"LED kind", "kind = ws2812", "kind = neopixel", "leds.kind", "unknown LED kind"},
		{"NRZ LEDs on the ADC bus", "bus = SPI0.0", "bus = SPI1.1", "leds.bus", "cannot share"},
		{"APA102 on the ADC bus", "kind = ws2812\nbus = SPI0.0", "kind = apa102\nbus = SPI1.1", "leds.bus", "no chip select"},
		{"LED current budget", "max-current = 1.5A", "max-current = 1mA", "leds.max-current", "bad current budget"},
		{"LED twice", "order = A1 A2", "order = A2 A2", "leds.order", "already has LED"},
		{"brightness", "brightness = 96", "brightness = 300", "leds.brightness", "out of range"},
		{"screen address", "address = 0x3C", "address = 0x50", "screen.address", "0x3C or 0x3D"},
		{"screen speed", "address = 0x3C", "address = 0x3C\nspeed = 5MHz", "screen.speed", "bad I²C speed"},
		{"button shares a GPIO", "takeback = GPIO22", "takeback = GPIO17", "buttons.takeback", "also button new-game"},
		{"mount off the base", "37 = 1 2", "37 = 3 2", "mount.37", "off the 61 base"},
		{"unknown section", "[screen]", "[scren]", "scren", "unknown section"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := edit(t, tc.old, tc.new)
			_, err := Parse("base.wiring", strings.NewReader(src))
			var we *Error
			if !errors.As(err, &we) {
				t.Fatalf("Parse = %v; want a *wiring.Error", err)
			}
			want := lineOf(src, tc.new) + strings.Count(tc.new, "\n") // the last line of the edit
			if we.File != "base.wiring" || we.Line != want || we.Field != tc.field || !strings.Contains(we.Msg, tc.msg) {
				t.Errorf("Parse error = %q; want base.wiring:%d, field %s, message containing %q", err, want, tc.field, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), "wiring: base.wiring:") {
				t.Errorf("error %q does not start with the package and file", err)
			}
		})
	}
}

func TestParseMissingSocket(t *testing.T) {
	src := edit(t, "E5 = adc0 1 14\n", "")
	_, err := Parse("base.wiring", strings.NewReader(src))
	if err == nil || !strings.Contains(err.Error(), "sockets.E5: socket is not wired") {
		t.Errorf("Parse without E5 = %v; want sockets.E5 not wired", err)
	}
}

func TestParseSyntax(t *testing.T) {
	for _, src := range []string{
		"board = 61\n",                 // key before a section
		"[base\n",                      // unclosed header
		"[base]\nboard 61\n",           // no =
		"[base]\nboard=61\nboard=61\n", // repeated key
		"[base]\n[base]\n",             // repeated section
	} {
		if _, err := Parse("x", strings.NewReader(src)); err == nil {
			t.Errorf("Parse(%q): want an error", src)
		}
	}
}

func TestDirectSockets(t *testing.T) {
	// A 37-socket base read by five MCP3008 with no mux.
	base := engine.MustStandardBoard("37")
	var b bytes.Buffer
	b.WriteString("[base]\nboard = 37\n")
	for i := 0; i < 5; i++ {
		b.WriteString("[adc a" + string(rune('0'+i)) + "]\nbus = SPI" + string(rune('0'+i)) + ".0\nchip = mcp3008\n")
	}
	b.WriteString("[sockets]\n")
	for c := engine.Cell(0); int(c) < base.Len(); c++ {
		b.WriteString(base.Label(c) + " = a" + string(rune('0'+int(c)/8)) + " " + string(rune('0'+int(c)%8)) + " -\n")
	}
	w, err := Parse("direct", &b)
	if err != nil {
		t.Fatal(err)
	}
	if w.Mux != nil || w.Sockets[36].MuxAddr != NoMux || w.Sockets[36].ADC != 4 {
		t.Errorf("direct wiring parsed as mux %v, socket %+v", w.Mux, w.Sockets[36])
	}
}

func TestDefaultMountFitsEveryBoard(t *testing.T) {
	base := engine.MustStandardBoard("61")
	for _, n := range engine.StandardBoardNames {
		g := engine.MustStandardBoard(n)
		off, err := DefaultOffset(base, g)
		if err != nil {
			t.Fatalf("DefaultOffset(61, %s): %v", n, err)
		}
		m, err := NewMount(base, g, off)
		if err != nil {
			t.Fatal(err)
		}
		// Neighbours stay neighbours.
		for c := engine.Cell(0); int(c) < g.Len(); c++ {
			for _, nb := range g.Neighbours(c) {
				found := false
				for _, bn := range base.Neighbours(m.Sockets[c]) {
					found = found || bn == m.Sockets[nb]
				}
				if !found {
					t.Errorf("board %s: %s and %s are neighbours but their sockets are not", n, g.Label(c), g.Label(nb))
				}
			}
		}
	}
	// The 37 board is centred exactly: its D4 sits on the base's E5.
	g := engine.MustStandardBoard("37")
	m, _ := NewMount(base, g, engine.Coord{X: 1, Y: 2})
	d4, _ := g.ParseCell("D4")
	if got := base.Label(m.Sockets[d4]); got != "E5" {
		t.Errorf("37 board D4 sits on %s; want E5", got)
	}
	if _, err := NewMount(base, g, engine.Coord{X: 3, Y: 3}); err == nil {
		t.Error("NewMount off the base: want an error")
	}
}

func TestProject(t *testing.T) {
	base := engine.MustStandardBoard("61")
	g := engine.MustStandardBoard("37")
	m, err := NewMount(base, g, engine.Coord{X: 1, Y: 2})
	if err != nil {
		t.Fatal(err)
	}
	frame := make([]engine.Content, base.Len())
	for i := range frame {
		frame[i] = engine.NoRing
	}
	e5, _ := base.ParseCell("E5")
	frame[e5] = engine.BlackMarble
	got := string(m.Project(nil, frame))
	d4, _ := g.ParseCell("D4")
	want := strings.Repeat(".", int(d4)) + "b" + strings.Repeat(".", g.Len()-int(d4)-1)
	if got != want {
		t.Errorf("Project = %q; want %q", got, want)
	}
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(100, func() { buf = m.Project(buf, frame) }); n != 0 {
		t.Errorf("Project allocates %v times", n)
	}
}
