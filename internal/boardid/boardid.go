// Package boardid checks board IDs, the one MQTT topic level that names a
// board (zertz/<board-id>/state) and the {id} of the scoreboard's pages. The
// same rule holds everywhere an ID comes in: the configuration, the
// command line, MQTT topics and URLs.
//
// Layer: base. May import: base.
package boardid

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxLen is the longest board ID, in bytes.
const MaxLen = 64

// Valid reports whether id is 1 to MaxLen characters of [A-Za-z0-9._-].
func Valid(id string) bool {
	if id == "" || len(id) > MaxLen || strings.Trim(id, ".") == "" {
		return false // "." and ".." would be paths, not names
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Check returns an error naming id (clipped) unless it is Valid.
func Check(id string) error {
	if Valid(id) {
		return nil
	}
	return fmt.Errorf("bad board ID %s (want 1 to %d characters of A-Z a-z 0-9 . _ -)", Quote(id), MaxLen)
}

// Quote quotes id for a message, clipped to a few dozen bytes so that a
// hostile ID cannot flood a log line.
func Quote(id string) string {
	const show = 40
	if len(id) <= show {
		return strconv.Quote(id)
	}
	return strconv.Quote(id[:show]) + fmt.Sprintf("…(%d bytes)", len(id))
}
