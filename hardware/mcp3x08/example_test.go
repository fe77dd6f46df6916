package mcp3x08_test

import (
	"fmt"
	"log"

	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"

	"github.com/zertzboard/zertzboard/hardware/mcp3x08"
)

func Example() {
	if _, err := host.Init(); err != nil {
		log.Fatal(err)
	}
	p, err := spireg.Open("SPI0.0")
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	d, err := mcp3x08.New(p, &mcp3x08.Opts{Variant: mcp3x08.MCP3208})
	if err != nil {
		log.Fatal(err)
	}
	v, err := d.ReadRaw(0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("channel 0:", v)
}
