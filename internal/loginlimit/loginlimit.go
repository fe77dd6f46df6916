// Package loginlimit is the log-in rate limit shared by the arbiter
// console and the embedded MQTT broker: each key (a remote address, a user
// name) may make Burst attempts at once, then one per Every; a successful
// log-in gives its attempt back, so only failures count.
//
// Layer: base. May import: base.
package loginlimit

import (
	"sync"
	"time"
)

// Policy is a limit.
type Policy struct {
	Burst   int           // attempts at once
	Every   time.Duration // then one per this
	MaxKeys int           // keys remembered; beyond, new keys are refused
}

// Console is the console's policy, which the broker applies too: five
// attempts at once, then one per 12 s, for at most 4096 keys.
var Console = Policy{Burst: 5, Every: 12 * time.Second, MaxKeys: 4096}

// Limiter counts attempts per key. It is safe for concurrent use.
type Limiter struct {
	p   Policy
	now func() time.Time

	mu   sync.Mutex
	keys map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// New returns a Limiter; now may be nil (time.Now).
func New(p Policy, now func() time.Time) *Limiter {
	if p.Burst < 1 {
		p.Burst = 1
	}
	if p.Every <= 0 {
		p.Every = time.Second
	}
	if p.MaxKeys <= 0 {
		p.MaxKeys = 4096
	}
	if now == nil {
		now = time.Now
	}
	return &Limiter{p: p, now: now, keys: map[string]*bucket{}}
}

// Allow takes one attempt from key's bucket; false means the key must
// wait (or the table is full of keys still limited).
func (l *Limiter) Allow(key string) bool {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.keys[key]
	if b == nil {
		if len(l.keys) >= l.p.MaxKeys {
			for k, ob := range l.keys { // forget the keys back at full burst
				if l.refill(ob, now) >= float64(l.p.Burst) {
					delete(l.keys, k)
				}
			}
			if len(l.keys) >= l.p.MaxKeys {
				return false
			}
		}
		b = &bucket{tokens: float64(l.p.Burst), at: now}
		l.keys[key] = b
	}
	b.tokens, b.at = l.refill(b, now), now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Refund gives back the attempt of a successful log-in.
func (l *Limiter) Refund(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.keys[key]; b != nil {
		b.tokens = min(float64(l.p.Burst), b.tokens+1)
	}
}

func (l *Limiter) refill(b *bucket, now time.Time) float64 {
	return min(float64(l.p.Burst), b.tokens+now.Sub(b.at).Seconds()/l.p.Every.Seconds())
}
