package buttons_test

import (
	"fmt"
	"log"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/zertzboard/zertzboard/hardware/buttons"
)

func Example() {
	// On a Pi the pins come from gpioreg.ByName("GPIO17") and so on.
	confirm := &gpiotest.Pin{N: "GPIO27"}
	d, err := buttons.New(nil, confirm, nil, &buttons.Opts{Debounce: 20 * time.Millisecond, Poll: 5 * time.Millisecond})
	if err != nil {
		log.Fatal(err)
	}
	confirm.Out(gpio.Low) // pressed: the button shorts the pin to ground
	t := time.Unix(0, 0)
	for i := 0; i < 6; i++ {
		for _, e := range d.Poll(t.Add(time.Duration(i)*5*time.Millisecond), nil) {
			fmt.Println(e.Button, "pressed after", e.T.Sub(t))
		}
	}
	// Output: confirm pressed after 20ms
}
