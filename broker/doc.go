// Package broker is the embedded MQTT broker that `zertzboard sim` and a
// board without an external broker run: mochi-mqtt with TCP and WebSocket
// listeners and an authentication hook of our own (see auth.go), because
// mochi refuses every client until a hook lets them in.
//
// Topics live under Config.Prefix (default "zertz/"), one level per board:
// <prefix><board-id>/state, <prefix><board-id>/cmd/<name>, … (the layout of
// docs/CONTRACTS.md, section 5; its roles are in 5.4).
//
// Known upstream issue: mochi 2.7.9 reads a topic's retained path without a
// lock while it scans retained messages for a wildcard subscription, and
// writes it under a lock on every retained publish
// (mochi-mqtt/server#200). The race detector reports it when a wildcard
// subscription and a retained publish meet; the tests subscribe to explicit
// topics.
package broker
