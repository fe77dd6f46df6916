// Package broker is the embedded MQTT broker that `zertzboard sim` and a
// board without an external broker run: mochi-mqtt with TCP and WebSocket
// listeners and an authentication hook of our own (see auth.go), because
// mochi refuses every client until a hook lets them in.
//
// Topics live under Config.Prefix (default "zertz/"), one level per board:
// <prefix><board-id>/state, <prefix><board-id>/cmd/<name>, … (the layout of
// docs/CONTRACTS.md, section 5; its roles are in 5.4). Board IDs are checked
// (internal/boardid) in every topic a client publishes to.
//
// Roles (auth.go): the board publishes its topics and reads its commands;
// operators send commands and read everything; viewers and anonymous
// clients read status, state, moves, events and record, never cmd/.
//
// Nothing on the LAN can hurt the board (limits.go, Limits): a packet is
// refused by its header when it claims more than MaxPacketSize (64 KiB),
// before its body is read; client IDs, per-client queues, in-flight
// messages, keepalives and packet rates are bounded; each listener bounds
// its connections in total, per address and per second. Log lines never
// carry a payload, are clipped (internal/logguard) and rate-limited per
// client. MQTT 3.1.1 clients are closed without DISCONNECT, as that
// protocol wants; MQTT 5 clients get one with a reason code. With a
// certificate and key both listeners speak TLS; without them a broker
// listening beyond loopback says so at start-up.
//
// Known upstream issue: mochi 2.7.9 reads a topic's retained path without a
// lock while it scans retained messages for a wildcard subscription, and
// writes it under a lock on every retained publish
// (mochi-mqtt/server#200). The race detector reports it when a wildcard
// subscription and a retained publish meet; the tests subscribe to explicit
// topics.
//
// Layer: services. May import: base, game, services.
package broker
