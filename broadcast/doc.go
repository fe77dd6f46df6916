// Package broadcast publishes a board's live game over MQTT and receives
// its commands, with the topics, retain flags, QoS and payloads of
// docs/CONTRACTS.md (section 5, MQTT):
//
//	<prefix>status   retained, QoS 1: "online" / "offline" (also the Last Will)
//	<prefix>state    retained, QoS 1: wire.State
//	<prefix>moves    QoS 1: wire.MoveMessage, every one, in order
//	<prefix>events   QoS 0: referee events and command replies
//	<prefix>record   retained, QoS 1: the game record
//	<prefix>cmd/+    subscribed, QoS 1: the commands of package command
//
// The default prefix is "zertz/<board-id>/". The controller's frame loop
// calls the Publish methods, which only queue: the network is never on
// that path.
//
// Layer: services. May import: base, game, services.
package broadcast
