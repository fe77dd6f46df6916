package rig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/hardware/wiring"
)

func TestChoiceOptions(t *testing.T) {
	o, err := Choice{Sim: true}.Options()
	if err != nil || !o.Sim || o.Wiring != nil || o.Model != nil || o.Timing {
		t.Errorf("the simulator by default: %+v, %v; want the reference wiring and default model, no timing", o, err)
	}
	path := filepath.Join(t.TempDir(), "base.wiring")
	if err := os.WriteFile(path, wiring.ReferenceText(), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err = Choice{Sim: true, WiringFile: path, Model: "zero", BufSiz: 8192}.Options()
	if err != nil || o.Wiring == nil || o.Model == nil || o.Model.Name != "zero" || !o.Timing || o.Check.BufSiz != 8192 {
		t.Errorf("a named wiring and model in simulation: %+v, %v; want both, with the model's timing", o, err)
	}
	if o, err = (Choice{Model: "4b"}).Options(); err != nil || o.Timing {
		t.Errorf("a named model on hardware: %+v, %v; want no simulated timing", o, err)
	}
	if _, err := (Choice{Model: "pi9"}).Options(); err == nil || !strings.Contains(err.Error(), "pi9") {
		t.Errorf("an unknown model: %v; want it named", err)
	}
	if _, err := (Choice{WiringFile: filepath.Join(t.TempDir(), "none.wiring")}).Options(); err == nil || !strings.Contains(err.Error(), "none.wiring") {
		t.Errorf("a missing wiring file: %v; want it named", err)
	}
}
