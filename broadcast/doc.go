// Package broadcast publishes the live game over MQTT (see
// ../shared/design/ARCHITECTURE.md, MQTT topics).
package broadcast

// The pinned modules; replaced by real use.
import _ "github.com/eclipse/paho.mqtt.golang"
