package hc4067_test

import (
	"log"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"

	"github.com/zertzboard/zertzboard/hardware/hc4067"
)

func Example() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	var sel [4]gpio.PinOut
	for i, name := range []string{"GPIO5", "GPIO6", "GPIO13", "GPIO19"} {
		if sel[i] = gpioreg.ByName(name); sel[i] == nil {
			log.Fatalf("no pin %s", name)
		}
	}
	m, err := hc4067.New(sel, nil, &hc4067.DefaultOpts)
	if err != nil {
		log.Fatal(err)
	}
	defer m.Halt()
	if err := m.Select(9); err != nil {
		log.Fatal(err)
	}
}
