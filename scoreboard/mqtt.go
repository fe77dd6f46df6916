package scoreboard

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"net/url"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// MQTTConfig says how Follow reaches the broker.
type MQTTConfig struct {
	// Broker is a URL: tcp://host:1883, ssl://…, ws://host:8083/ or wss://….
	Broker string
	// Username and Password are optional: the embedded broker lets
	// anonymous viewers watch.
	Username string
	Password string
	// TLS, if not nil, is used for ssl:// and wss:// brokers.
	TLS *tls.Config
	// ClientID defaults to a random "zertzboard-scoreboard-…".
	ClientID string
	// MaxReconnect bounds the back-off between reconnections (default 10s).
	MaxReconnect time.Duration
	// Connected, if not nil, is called after every (re)subscription, once
	// the broker has sent the retained messages.
	Connected func()
}

// Follow subscribes to every board's state, status, events and moves on
// the broker and feeds them to s until ctx is done. It reconnects on its
// own; retained states and statuses arrive again on each subscription.
func (s *Server) Follow(ctx context.Context, cfg MQTTConfig) error {
	if err := cfg.check(); err != nil {
		return err
	}
	filters := map[string]byte{}
	for _, f := range s.Filters() {
		filters[f] = 1
	}
	handle := func(_ mqtt.Client, m mqtt.Message) { s.Handle(m.Topic(), m.Payload()) }
	o := mqtt.NewClientOptions().AddBroker(cfg.Broker).
		SetClientID(cfg.ClientID).SetUsername(cfg.Username).SetPassword(cfg.Password).
		SetProtocolVersion(4).SetCleanSession(true).SetOrderMatters(true).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(time.Second).
		SetMaxReconnectInterval(cfg.MaxReconnect).SetConnectTimeout(10 * time.Second).
		SetKeepAlive(30 * time.Second)
	if cfg.TLS != nil {
		o.SetTLSConfig(cfg.TLS)
	}
	o.SetOnConnectHandler(func(c mqtt.Client) {
		s.log.Info("scoreboard: connected to the broker", "broker", cfg.Broker)
		go func() { // not on paho's connect goroutine: the SUBACK arrives there
			tok := c.SubscribeMultiple(filters, handle)
			select {
			case <-tok.Done():
			case <-ctx.Done():
				return
			}
			if err := tok.Error(); err != nil {
				s.log.Error("scoreboard: subscribing", "err", err)
				return
			}
			// A broker handles a client's packets in order, so once it
			// answers this it has sent every retained message.
			sync := c.Unsubscribe(s.opts.Prefix + "+/scoreboard-sync")
			select {
			case <-sync.Done():
			case <-ctx.Done():
				return
			}
			if cfg.Connected != nil {
				cfg.Connected()
			}
		}()
	})
	var (
		mu          sync.Mutex // paho calls the handler from several goroutines
		lastFailure string
	)
	o.SetConnectionNotificationHandler(func(_ mqtt.Client, n mqtt.ConnectionNotification) {
		mu.Lock()
		defer mu.Unlock()
		switch n := n.(type) {
		case mqtt.ConnectionNotificationBrokerFailed:
			// Retries come every second; log only a new reason.
			if msg := n.Reason.Error(); msg != lastFailure {
				lastFailure = msg
				s.log.Warn("scoreboard: cannot connect to the broker; retrying", "broker", cfg.Broker, "err", n.Reason)
			}
		case mqtt.ConnectionNotificationConnected:
			lastFailure = ""
		}
	})
	o.SetConnectionLostHandler(func(_ mqtt.Client, err error) {
		s.log.Warn("scoreboard: lost the broker; reconnecting", "err", err)
	})
	c := mqtt.NewClient(o)
	tok := c.Connect() // retries until Disconnect
	<-ctx.Done()
	c.Disconnect(250)
	// The retry loop notices the disconnection within a retry interval.
	tok.WaitTimeout(2 * time.Second)
	return nil
}

// check checks the broker's URL and fills in the client ID (a random
// one) and the reconnection interval when they are left out.
func (c *MQTTConfig) check() error {
	u, err := url.Parse(c.Broker)
	if err != nil || u.Host == "" {
		return fmt.Errorf("scoreboard: broker URL %q: want tcp://host:port, ssl://, ws:// or wss://", c.Broker)
	}
	switch u.Scheme {
	case "tcp", "mqtt", "ssl", "tls", "mqtts", "ws", "wss":
	default:
		return fmt.Errorf("scoreboard: broker URL %q: scheme must be tcp, ssl, ws or wss", c.Broker)
	}
	if c.ClientID == "" {
		b := make([]byte, 6)
		rand.Read(b)
		c.ClientID = "zertzboard-scoreboard-" + hex.EncodeToString(b)
	}
	if c.MaxReconnect <= 0 {
		c.MaxReconnect = 10 * time.Second
	}
	return nil
}
