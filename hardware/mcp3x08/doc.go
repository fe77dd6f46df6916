// Package mcp3x08 drives the Microchip MCP3008 (10-bit) and MCP3208 (12-bit)
// 8-channel SPI analog-to-digital converters.
//
// zertzboard reads one linear Hall sensor per ring socket through these
// chips, usually behind 74HC4067 multiplexers (see package hc4067).
//
// The driver only does single-ended conversions: every sensor is referenced
// to ground, and the differential pairs of the chip are of no use to us. It
// uses spi.Conn.Tx, one 3-byte transaction per conversion, because periph's
// SPI fakes (spitest) don't implement TxPackets, and one transaction per
// conversion is also what the datasheets draw.
//
// # Datasheets
//
// MCP3008: https://ww1.microchip.com/downloads/en/DeviceDoc/21295d.pdf
// (section 6.1, figure 6-1: "SPI communication using 8-bit segments").
//
// MCP3208: https://ww1.microchip.com/downloads/en/DeviceDoc/21298e.pdf
// (section 6.1, figure 6-1).
//
// # Framing
//
// Both chips take a start bit, SGL/DIFF (1 = single-ended) and the channel
// D2 D1 D0, then clock out a null bit and the result MSB first. The byte
// alignment differs, which is why the two chips need different bytes:
//
//	MCP3008  W: 0000_0001  1 D2 D1 D0 xxxx  xxxx_xxxx
//	         R: ????_????  ???? ?0 B9 B8    B7 … B0
//	MCP3208  W: 0000_0 1 1 D2  D1 D0 xx_xxxx  xxxx_xxxx
//	         R: ????_????  ??? 0 B11 … B8     B7 … B0
//
// Layer: drivers. May import: base, game, drivers.
package mcp3x08
