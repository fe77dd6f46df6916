package board

import (
	"syscall"
	"testing"

	"github.com/zertzboard/zertzboard/i18n"
)

// A failed journal write shows on the status screen, after the standing
// warning and before the other faults, until the journal is whole again.
func TestJournalFaultOnTheScreen(t *testing.T) {
	d := newScreens(nil, nil, nil, i18n.EN)
	d.warn = d.lang.T("warn.journal-damaged")
	d.journalFault(syscall.ENOSPC)
	d.mu.Lock()
	got := d.systemFaults([]string{"C3: stuck"})
	d.mu.Unlock()
	if len(got) != 3 || got[0] != "BAD JOURNAL" || got[1] != "JOURNAL UNSAVED" || got[2] != "C3: stuck" {
		t.Errorf("faults %q; want the warning, the journal's failure, the sensor's", got)
	}
	d.journalFault(nil)
	d.mu.Lock()
	got = d.systemFaults(nil)
	d.mu.Unlock()
	if len(got) != 1 || got[0] != "BAD JOURNAL" {
		t.Errorf("faults %q once the journal is whole; want the warning only", got)
	}
}
