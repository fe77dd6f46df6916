package loginlimit

import (
	"testing"
	"time"
)

func TestPolicy(t *testing.T) {
	now := time.Unix(1000, 0)
	l := New(Console, func() time.Time { return now })
	for i := 0; i < 5; i++ {
		if !l.Allow("a") {
			t.Fatalf("attempt %d refused; want the first five allowed", i+1)
		}
	}
	if l.Allow("a") {
		t.Fatal("sixth attempt at once allowed")
	}
	if !l.Allow("b") {
		t.Fatal("another key is limited by the first")
	}
	now = now.Add(11 * time.Second)
	if l.Allow("a") {
		t.Fatal("allowed after 11 s; want one per 12 s")
	}
	now = now.Add(2 * time.Second)
	if !l.Allow("a") {
		t.Fatal("refused after 13 s")
	}
	l.Refund("a")
	if !l.Allow("a") {
		t.Fatal("a refunded attempt was not given back")
	}
}

func TestKeysBounded(t *testing.T) {
	now := time.Unix(1000, 0)
	l := New(Policy{Burst: 1, Every: time.Minute, MaxKeys: 3}, func() time.Time { return now })
	for _, k := range []string{"a", "b", "c"} {
		l.Allow(k)
	}
	if l.Allow("d") {
		t.Fatal("a fourth key admitted while three are limited")
	}
	now = now.Add(time.Minute)
	if !l.Allow("d") {
		t.Fatal("a new key refused once the others are back at full burst")
	}
	if len(l.keys) > 3 {
		t.Fatalf("%d keys remembered; want at most 3", len(l.keys))
	}
}
