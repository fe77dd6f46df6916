// Package broker is the embedded MQTT broker, with authentication.
package broker

// The pinned modules; replaced by real use.
import _ "github.com/mochi-mqtt/server/v2"
