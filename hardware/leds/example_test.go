package leds_test

import (
	"fmt"
	"image/color"
	"log"

	"github.com/zertzboard/zertzboard/hardware/leds"
	"github.com/zertzboard/zertzboard/sim"
)

func Example() {
	// On a Pi, p comes from spireg.Open("SPI1.0"); here it is the
	// simulator's chain, which decodes what the driver sends.
	p := sim.NewLEDChain("SPI1.0", sim.NRZ, 2)
	d, err := leds.New(p, 2, &leds.Opts{Kind: leds.NRZ, Order: []int{1, 0}, Brightness: 255, Gamma: 1})
	if err != nil {
		log.Fatal(err)
	}
	defer d.Halt()
	d.Set(0, color.NRGBA{R: 200})
	if err := d.Show(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Colors()[1].R)
	// Output: 200
}
