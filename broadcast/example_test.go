package broadcast_test

import (
	"log"
	"log/slog"

	"github.com/zertzboard/zertzboard/broadcast"
	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/command"
	"github.com/zertzboard/zertzboard/wire"
)

// The controller's wiring: an embedded broker with a board account, and the
// publisher connected to it. (Compiled, not run: it listens on real ports.)
func Example() {
	b, err := broker.New(broker.Config{
		Users:  []broker.User{{Name: "board", Password: "s3cret", Role: broker.RoleBoard}},
		Logger: slog.Default(),
	})
	if err != nil {
		log.Fatal(err)
	}
	if err := b.Start(); err != nil {
		log.Fatal(err)
	}
	defer b.Close()

	p, err := broadcast.New(broadcast.Config{
		Brokers:  []string{"tcp://" + b.TCPAddr()},
		BoardID:  "b1",
		Username: "board", Password: "s3cret",
		StoreDir: "/var/lib/zertzboard/mqtt",
		Logger:   slog.Default(),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()

	// In the frame loop: these only queue.
	_ = p.PublishState(wire.State{Schema: wire.Schema, Seq: 1, BoardID: "b1"})

	// In the controller's select loop:
	for cmd := range p.Commands() {
		switch cmd.Command.(type) {
		case command.NewGame, command.SetPlayers, command.Takeback:
			// … carry it out, then:
			_ = p.Accept(cmd)
		}
	}
}
