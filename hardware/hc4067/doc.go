// Package hc4067 drives a 74HC4067 (or CD74HC4067) 16-channel analog
// multiplexer from four GPIO select lines and an optional active-low enable
// line.
//
// zertzboard puts one multiplexer in front of each ADC channel, and wires
// the four select lines of every multiplexer together, so that one Select
// routes sixteen sockets at once.
//
// After the select lines change, the mux output and the ADC's sample
// capacitor need time to settle: the switch resistance (about 70 Ω at
// 4.5 V, more at 3.3 V) and the Hall sensor's output impedance charge the
// input. Opts.Settle sets that wait; the driver only waits when the address
// actually changed.
//
// # Datasheets
//
// Texas Instruments CD74HC4067:
// https://www.ti.com/lit/ds/symlink/cd74hc4067.pdf (truth table, page 2).
//
// Nexperia 74HC4067: https://assets.nexperia.com/documents/data-sheet/74HC_HCT4067.pdf
//
// Layer: drivers. May import: base, game, drivers.
package hc4067
