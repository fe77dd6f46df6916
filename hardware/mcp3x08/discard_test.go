package mcp3x08

import (
	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/spi"
)

// discardConn is a bus with no cost, to measure the driver alone.
type discardConn struct{}

func (discardConn) String() string               { return "discard" }
func (discardConn) Duplex() conn.Duplex          { return conn.Full }
func (discardConn) Tx(w, r []byte) error         { return nil }
func (discardConn) TxPackets([]spi.Packet) error { return nil }
