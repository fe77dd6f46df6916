package rig

import (
	"github.com/zertzboard/zertzboard/hardware/pi"
	"github.com/zertzboard/zertzboard/hardware/wiring"
)

// Choice names a rig the way the commands' flags do.
type Choice struct {
	// Sim opens the simulator instead of the Pi's buses.
	Sim bool
	// WiringFile is the wiring file; "" means the reference wiring.
	WiringFile string
	// Model names the Pi (pi.ByName); "" means this Pi, or with Sim
	// sim.DefaultModel. A model named in simulation also charges its
	// timing (Options.Timing).
	Model string
	// BufSiz is spidev's buffer size in bytes; 0 means the default.
	BufSiz int
}

// Options loads the wiring file and looks the model up.
func (c Choice) Options() (Options, error) {
	o := Options{Sim: c.Sim, Check: pi.CheckOpts{BufSiz: c.BufSiz}}
	if c.WiringFile != "" {
		w, err := wiring.Load(c.WiringFile)
		if err != nil {
			return o, err
		}
		o.Wiring = w
	}
	if c.Model != "" {
		m, err := pi.ByName(c.Model)
		if err != nil {
			return o, err
		}
		o.Model = m
		o.Timing = c.Sim
	}
	return o, nil
}
