// Package hostile holds the hostile-client test suite: it runs a real
// "zertzboard sim" (built without the race detector, so that its memory
// is the board's) and attacks its embedded MQTT broker and its scoreboard
// from loopback the way anything on a tournament LAN could: oversized
// publishes and CONNECTs, 256 MB length claims, huge client IDs, hundreds
// of idle connections, floods of commands, slowloris and hundreds of event
// streams. Throughout, the board's state must keep flowing with seq
// rising, its resident memory must stay under 64 MB, and no log line may
// exceed 4 KiB.
//
// Each attack comes from its own loopback address (127.0.0.2, 127.0.0.3,
// …), as separate devices on a LAN would, so that per-address limits
// meet each attacker as they would in a hall.
//
// ZERTZBOARD_BIN names a prebuilt binary to attack instead of building
// one, e.g. an older version, to measure it (the suite then logs each
// attack's memory even when it fails). HOSTILE_SETTLE (a duration) waits
// that long after each attack, for such a version to finish logging what
// it read; run one attack per board with -run 'TestHostileClients/NAME$'.
//
// Layer: base. May import: base.
package hostile
