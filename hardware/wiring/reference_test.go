package wiring

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite firmware-config/reference-61.wiring")

const referencePath = "../../firmware-config/reference-61.wiring"

func TestReferenceWiringIsCurrent(t *testing.T) {
	want := ReferenceText()
	if *update {
		if err := os.WriteFile(referencePath, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(referencePath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale or hand-edited; run go test ./hardware/wiring -update", referencePath)
	}
}

func TestLoadReference(t *testing.T) {
	w, err := Load(referencePath)
	if err != nil {
		t.Fatal(err)
	}
	if w.Base.Len() != 61 || len(w.Sockets) != 61 {
		t.Fatalf("base has %d sockets; want 61", len(w.Sockets))
	}
	e5, _ := w.Base.ParseCell("E5")
	if got, want := w.Sockets[e5], (Socket{ADC: 0, Channel: int(e5) / 16, MuxAddr: int(e5) % 16}); got != want {
		t.Errorf("E5 wired to %+v; want %+v", got, want)
	}
	if w.Mux == nil || w.Mux.Select != [4]string{"GPIO5", "GPIO6", "GPIO13", "GPIO26"} || w.Mux.Enable != "GPIO23" {
		t.Errorf("mux = %+v", w.Mux)
	}
	if w.LEDs == nil || len(w.LEDs.Order) != 61 || w.Base.Label(w.LEDs.Order[5]) != "B6" {
		t.Errorf("LED chain does not snake: %+v", w.LEDs)
	}
	if w.Screen == nil || w.Screen.Bus != "I2C1" || w.Screen.Address != 0x3C {
		t.Errorf("screen = %+v", w.Screen)
	}
	if w.Buttons.NewGame != "GPIO17" || w.Buttons.Confirm != "GPIO27" || w.Buttons.Takeback != "GPIO22" {
		t.Errorf("buttons = %+v", w.Buttons)
	}
}
