module github.com/zertzboard/zertzboard

go 1.24.0

require (
	golang.org/x/image v0.23.0
	periph.io/x/conn/v3 v3.7.2
	periph.io/x/devices/v3 v3.7.4
	periph.io/x/host/v3 v3.8.5
)

require github.com/jonboulle/clockwork v0.5.0 // indirect
