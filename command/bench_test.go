package command

import "testing"

// BenchmarkDecode is the cost of checking one command from the LAN, a
// new-game with most of its fields: what the broadcast pays on paho's
// router goroutine for each command.
func BenchmarkDecode(b *testing.B) {
	payload := []byte(`{"id":"r2","first":1,"variant":"48","players":["Ann","Bo"],"time_control":"fischer:20m+10s","engine":"none","event":"Club Open","round":"3"}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, reason := Decode("new-game", payload, "s3cret-token"); reason != "missing or wrong token" {
			b.Fatal(reason)
		}
	}
}

// BenchmarkDecodeAccepted is a whole accepted command, its fields encoded
// for the journal as the board does.
func BenchmarkDecodeAccepted(b *testing.B) {
	payload := []byte(`{"id":"r2","first":1,"variant":"48","players":["Ann","Bo"],"time_control":"fischer:20m+10s","engine":"none","event":"Club Open","round":"3"}`)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		e, reason := Decode("new-game", payload, "")
		if reason != "" {
			b.Fatal(reason)
		}
		_ = Fields(e.Command)
	}
}
