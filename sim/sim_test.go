package sim

import (
	"image"
	"image/color"
	"strings"
	"testing"

	"periph.io/x/conn/v3/physic"
	"periph.io/x/devices/v3/apa102"
	"periph.io/x/devices/v3/nrzled"
	"periph.io/x/devices/v3/ssd1306"
	"periph.io/x/devices/v3/ssd1306/image1bit"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/hardware/mcp3x08"
)

func TestADCAnswersTheRealDriver(t *testing.T) {
	for _, v := range []mcp3x08.Variant{mcp3x08.MCP3008, mcp3x08.MCP3208} {
		a := NewADC("adc0", v, func(ch int) uint16 { return uint16(100*ch + 7) })
		d, err := mcp3x08.New(a, &mcp3x08.Opts{Variant: v})
		if err != nil {
			t.Fatal(err)
		}
		for ch := 0; ch < 8; ch++ {
			got, err := d.ReadRaw(ch)
			if err != nil {
				t.Fatal(err)
			}
			if want := uint16(100*ch + 7); got != want {
				t.Errorf("%s channel %d read %d; want %d", v, ch, got, want)
			}
		}
		if a.Conversions() != 8 {
			t.Errorf("%s answered %d conversions; want 8", v, a.Conversions())
		}
	}
}

func TestADCRejectsWrongChipCommands(t *testing.T) {
	a := NewADC("adc0", mcp3x08.MCP3208, func(int) uint16 { return 0 })
	// An MCP3008 driver talking to an MCP3208 is a wiring-file mistake the
	// simulator must expose, not paper over.
	d, err := mcp3x08.New(a, &mcp3x08.Opts{Variant: mcp3x08.MCP3008})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.ReadRaw(0); err == nil {
		t.Error("MCP3008 command to a virtual MCP3208: want an error")
	}
}

func TestBoardReading(t *testing.T) {
	base := engine.MustStandardBoard("61")
	o := DefaultBoardOpts
	o.Noise, o.Spread, o.Gain, o.Crosstalk = 0, 0, 0, 0.005
	b := NewBoard(base, &o)
	e5, _ := base.ParseCell("E5")
	if got := b.Read(e5); got != 2048 {
		t.Errorf("empty socket reads %d; want 2048", got)
	}
	b.Set(e5, engine.BlackMarble)
	black := DefaultLevels[4]
	if got := b.Read(e5); float64(got) != black {
		t.Errorf("black marble reads %d; want %.0f", got, black)
	}
	// Crosstalk: each of E5's six neighbours sees 0.5% of black's field.
	for _, n := range base.Neighbours(e5) {
		if got, want := b.Level(n), 2048+0.005*(black-2048); got != want {
			t.Errorf("neighbour %s level %.2f; want %.2f", base.Label(n), got, want)
		}
	}
	b.Kill(e5, 0)
	if got := b.Read(e5); got != 0 {
		t.Errorf("dead sensor reads %d; want 0", got)
	}
	b.Heal(e5)
	b.Drift(e5, 10)
	b.Read(e5)
	if got := b.Read(e5); float64(got) != black+20 {
		t.Errorf("drifting sensor's 2nd reading %d; want %.0f", got, black+20)
	}
	if err := b.SetCells(strings.Repeat("x", 61)); err == nil {
		t.Error("SetCells with x: want an error")
	}
}

func TestLEDChainDecodesNRZLED(t *testing.T) {
	chain := NewLEDChain("SPI1.0", NRZ, 3)
	d, err := nrzled.NewSPI(chain, &nrzled.Opts{NumPixels: 3, Channels: 3, Freq: 2500 * physic.KiloHertz})
	if err != nil {
		t.Fatal(err)
	}
	want := []color.NRGBA{{255, 0, 0, 255}, {1, 128, 254, 255}, {0, 0, 0, 255}}
	if _, err := d.Write([]byte{255, 0, 0, 1, 128, 254, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if got := chain.Colors(); !equalColors(got, want) {
		t.Errorf("decoded %v; want %v", got, want)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	for i, c := range chain.Colors() {
		if c.R|c.G|c.B != 0 {
			t.Errorf("LED %d lit after Halt: %v", i, c)
		}
	}
}

func TestLEDChainDecodesAPA102(t *testing.T) {
	chain := NewLEDChain("SPI1.0", APA102, 2)
	o := apa102.PassThruOpts
	o.NumPixels = 2
	d, err := apa102.New(chain, &o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Write([]byte{10, 20, 30, 200, 0, 100}); err != nil {
		t.Fatal(err)
	}
	want := []color.NRGBA{{10, 20, 30, 255}, {200, 0, 100, 255}}
	if got := chain.Colors(); !equalColors(got, want) {
		t.Errorf("decoded %v; want %v", got, want)
	}
}

func TestDecodeNRZRejectsGarbage(t *testing.T) {
	if _, err := DecodeNRZ([]byte{0, 0, 0, 0x12, 0x34, 0x56, 0x78, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88}); err == nil {
		t.Error("DecodeNRZ of bad nibbles: want an error")
	}
}

func equalColors(a, b []color.NRGBA) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestScreenDecodesSSD1306(t *testing.T) {
	s := NewScreen("I2C1", 0x3C)
	d, err := ssd1306.NewI2C(s, &ssd1306.DefaultOpts)
	if err != nil {
		t.Fatal(err)
	}
	img := image1bit.NewVerticalLSB(d.Bounds())
	img.Set(0, 0, image1bit.On)
	img.Set(127, 63, image1bit.On)
	img.Set(64, 20, image1bit.On)
	if err := d.Draw(d.Bounds(), img, image.Point{}); err != nil {
		t.Fatal(err)
	}
	got := s.Image()
	for _, p := range []image.Point{{0, 0}, {127, 63}, {64, 20}} {
		if got.GrayAt(p.X, p.Y).Y == 0 {
			t.Errorf("pixel %v dark; want lit", p)
		}
	}
	lit := 0
	for i := range got.Pix {
		if got.Pix[i] != 0 {
			lit++
		}
	}
	if lit != 3 {
		t.Errorf("%d pixels lit; want 3", lit)
	}
	// A partial update only sends the changed rectangle.
	img.Set(64, 20, image1bit.Off)
	img.Set(10, 40, image1bit.On)
	if err := d.Draw(d.Bounds(), img, image.Point{}); err != nil {
		t.Fatal(err)
	}
	got = s.Image()
	if got.GrayAt(64, 20).Y != 0 || got.GrayAt(10, 40).Y == 0 || got.GrayAt(127, 63).Y == 0 {
		t.Error("partial update decoded wrong")
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	if s.On() {
		t.Error("screen on after Halt")
	}
	if err := s.Tx(0x3D, []byte{0}, nil); err == nil {
		t.Error("Tx to 0x3D: want an error")
	}
	if err := s.SavePNG(t.TempDir() + "/screen.png"); err != nil {
		t.Error(err)
	}
}
