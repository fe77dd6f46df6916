package analyst

import (
	"testing"
	"time"
)

func TestForSetting(t *testing.T) {
	if o := ForSetting("off", 3, time.Second, 4); o != nil {
		t.Errorf("off: %+v; want no analysis", o)
	}
	for setting, tournament := range map[string]bool{"on": true, "auto": false} {
		o := ForSetting(setting, 3, time.Second, -1)
		if o == nil || o.MaxTurns != 3 || o.Budget != time.Second || o.EvalLevel != -1 || o.InTournament != tournament {
			t.Errorf("%s: %+v; want 3 turns, 1s, no evaluation, tournaments %t", setting, o, tournament)
		}
	}
}
