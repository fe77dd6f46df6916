// Package sim is a bus-level simulator of the zertzboard hardware: a
// virtual board of magnets read by virtual MCP3x08 chips through virtual
// 74HC4067 select lines, a virtual LED chain that decodes what the LED
// driver sent, an in-memory SSD1306, and button pins.
//
// It plugs in at the periph bus interfaces (spi.PortCloser, i2c.BusCloser,
// gpio.PinIO), so that every driver and everything above them runs the
// same code in simulation as on the Pi.
//
// The virtual sensors are deliberately imperfect: every socket has its own
// offset, readings carry Gaussian noise, neighbours' magnets leak in
// (crosstalk), and on demand a sensor dies or drifts. The classifier and
// the health checks are tested against that.
//
// Layer: simulator. May import: base, game, drivers, sensors, simulator.
package sim
