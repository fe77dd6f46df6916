package screen_test

import (
	"fmt"
	"log"

	"github.com/zertzboard/zertzboard/hardware/screen"
	"github.com/zertzboard/zertzboard/sim"
)

func Example() {
	// On a Pi the bus comes from i2creg.Open("I2C1"); here it is the
	// simulator's SSD1306, which decodes what the driver sends.
	bus := sim.NewScreen("I2C1", 0x3C)
	d, err := screen.New(bus, &screen.DefaultOpts)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Halt()
	lines := []string{"Ann to move", ">Ann      w1 g0 b2", " Ben      w0 g0 b0", "place a marble ✓", "a line longer than the screen"}
	if err := d.Show(lines); err != nil {
		log.Fatal(err)
	}
	for _, l := range screen.Fit(lines) {
		fmt.Printf("%q\n", l)
	}
	// Output:
	// "Ann to move"
	// ">Ann      w1 g0 b2"
	// " Ben      w0 g0 b0"
	// "place a marble ?"
	// "a line longer than"
}
