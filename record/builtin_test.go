package record

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/internal/samples"
)

var updateBuiltin = flag.Bool("update-builtin", false, "rewrite testdata/builtin-records.txt from the reader as it is")

// builtinDigest is what a sample reads to, as one line: its JSON record
// and what the JSON does not carry (the take-backs, StopCut, the reader's
// warnings), digested.
func builtinDigest(t *testing.T, rec *Record) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, rec); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&buf, "undos %d\nstopcut %v\nwarnings %q\n", rec.Undos, rec.StopCut, rec.Warnings)
	return fmt.Sprintf("%x", sha256.Sum256(buf.Bytes()))
}

// TestBuiltinSamplesReadAsBefore pins what every built-in sample reads
// to, so that a change to the SGF reader (its comments, for one) that
// changes how a real Boardspace game reads is seen. After a deliberate
// change, rewrite the list with go test ./record -run Builtin -update-builtin
// and say why in the commit.
func TestBuiltinSamplesReadAsBefore(t *testing.T) {
	const golden = "testdata/builtin-records.txt"
	var got []string
	for _, name := range samples.BuiltinNames() {
		rec := readSample(t, filepath.Join(samples.BuiltinDir(), name))
		if len(rec.Notes) != 0 {
			t.Errorf("%s: %d arbiter's notes read from a Boardspace game", name, len(rec.Notes))
		}
		got = append(got, name+" "+builtinDigest(t, rec))
	}
	if len(got) == 0 {
		t.Fatal("no built-in samples")
	}
	text := strings.Join(got, "\n") + "\n"
	if *updateBuiltin {
		if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(want) != len(got) {
		t.Fatalf("%d built-in samples; %s lists %d", len(got), golden, len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("sample reads differently from before:\n got %s\nwant %s", got[i], want[i])
		}
	}
}
