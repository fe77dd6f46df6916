package screen

import (
	"testing"

	"periph.io/x/conn/v3/i2c/i2ctest"

	"github.com/zertzboard/zertzboard/sim"
)

// TestPlayback records the driver's I²C traffic at 0x3D, checks it against
// the SSD1306 datasheet, then replays it: any change in what the driver
// sends fails the replay.
func TestPlayback(t *testing.T) {
	s := []string{"Bob to move", " Ann      w1 g0 b2", ">Bob      w0 g3 b0", "remove a free ring"}
	rec := &i2ctest.Record{Bus: sim.NewScreen("I2C1", 0x3D)}
	d, err := New(rec, &Opts{Address: 0x3D})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Show(s); err != nil {
		t.Fatal(err)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	ops := rec.Ops
	if len(ops) < 3 {
		t.Fatalf("%d I²C transactions", len(ops))
	}
	for i, op := range ops {
		if op.Addr != 0x3D {
			t.Fatalf("transaction %d went to %#x; want 0x3D", i, op.Addr)
		}
	}
	// Datasheet, command table: a command stream starts with control byte
	// 0x00; 0xAE is "display off". Init switches it off before setting up,
	// and Halt ends with it.
	first, last := ops[0].W, ops[len(ops)-1].W
	if len(first) < 2 || first[0] != 0x00 || first[1] != 0xAE {
		t.Errorf("init starts % x; want 00 ae (display off)", first)
	}
	if len(last) != 2 || last[0] != 0x00 || last[1] != 0xAE {
		t.Errorf("Halt sends % x; want 00 ae", last)
	}
	// The frame goes as data (control byte 0x40), 1024 bytes for 128×64.
	data := 0
	for _, op := range ops {
		if len(op.W) > 0 && op.W[0] == 0x40 {
			data += len(op.W) - 1
		}
	}
	if data != 128*64/8 {
		t.Errorf("%d bytes of pixel data; want %d", data, 128*64/8)
	}

	play := &i2ctest.Playback{Ops: ops, DontPanic: true}
	d2, err := New(play, &Opts{Address: 0x3D})
	if err != nil {
		t.Fatal(err)
	}
	if err := d2.Show(s); err != nil {
		t.Fatal(err)
	}
	if err := d2.Halt(); err != nil {
		t.Fatal(err)
	}
	if err := play.Close(); err != nil {
		t.Fatalf("replay: %v", err)
	}
}
