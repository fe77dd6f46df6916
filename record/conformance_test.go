package record

import (
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
)

// manifestRow is one line of MANIFEST.tsv, by column name, with the
// directory it came from.
type manifestRow map[string]string

// loadManifest reads dir/MANIFEST.tsv, which an independent replayer wrote.
func loadManifest(t *testing.T, dir string) []manifestRow {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatalf("sample games: %v", err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("MANIFEST.tsv: %v", err)
	}
	if len(rows) < 2 {
		t.Fatalf("MANIFEST.tsv has no games")
	}
	var out []manifestRow
	for _, row := range rows[1:] {
		m := manifestRow{"dir": dir}
		for i, name := range rows[0] {
			if i < len(row) {
				m[name] = row[i]
			}
		}
		out = append(out, m)
	}
	return out
}

func (m manifestRow) int(t *testing.T, col string) int {
	t.Helper()
	n, err := strconv.Atoi(m[col])
	if err != nil {
		t.Fatalf("MANIFEST.tsv column %s = %q: %v", col, m[col], err)
	}
	return n
}

// features are the manifest's per-game counts, computed from a replay.
type features struct {
	turns, capturesTurns, maxChain                       int
	isolationGroups, fullBoardClaim                      int
	ownCapturePlacements, placementsWithoutRemoval, undo int
}

// measure counts a replayed game's features the way MANIFEST.tsv does.
// Its isolation_groups counts connected groups, not claiming turns; a
// claim that takes the whole remaining board as one group is the
// full-board claim and is counted there instead. A removal that splits a
// full board into several occupied groups counts as isolation groups.
func measure(rec *Record, rep *Replay) features {
	g := rep.Game
	b := g.Start().Board()
	f := features{turns: g.Len(), undo: rec.Undos}
	for i := 0; i < g.Len(); i++ {
		t, claimed := g.Turn(i)
		switch t.Kind {
		case engine.Capture:
			f.capturesTurns++
			f.maxChain = max(f.maxChain, t.Hops())
		case engine.Place:
			if t.From == engine.FromCaptures {
				f.ownCapturePlacements++
			}
			if t.Remove == engine.NoCell {
				f.placementsWithoutRemoval++
			}
		}
		if len(claimed) == 0 {
			continue
		}
		n := countGroups(b, claimed)
		if n == 1 && g.PositionAfter(i+1).Rings() == 0 {
			f.fullBoardClaim++
		} else {
			f.isolationGroups += n
		}
	}
	return f
}

// countGroups counts the connected groups among cells.
func countGroups(b *engine.Board, cells []engine.Cell) int {
	in := map[engine.Cell]bool{}
	for _, c := range cells {
		in[c] = true
	}
	n := 0
	for _, c := range cells {
		if !in[c] {
			continue
		}
		n++
		stack := []engine.Cell{c}
		delete(in, c)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, y := range b.Neighbours(x) {
				if in[y] {
					delete(in, y)
					stack = append(stack, y)
				}
			}
		}
	}
	return n
}

var manifestVariants = map[string]string{"Zertz": "37", "Zertz+11": "48", "Zertz+24": "61"}

var manifestEndings = map[string]Outcome{"win": Win, "resign": Resigned, "winontime": Timeout}

// TestConformance replays every Boardspace game of the built-in set and,
// when it is there, of the larger sample, and checks each against its
// MANIFEST.tsv.
func TestConformance(t *testing.T) {
	t.Run("builtin", func(t *testing.T) {
		rows := loadManifest(t, samples.BuiltinDir())
		if want := len(samples.BuiltinNames()); len(rows) != want {
			t.Errorf("MANIFEST.tsv lists %d games; want %d", len(rows), want)
		}
		checkGames(t, rows)
	})
	t.Run("extended", func(t *testing.T) {
		dir := samples.ExtendedDir()
		if dir == "" {
			t.Skipf("no larger sample (set %s or put it at ../shared/games/boardspace-sample)", samples.EnvDir)
		}
		checkGames(t, loadManifest(t, dir))
	})
}

func checkGames(t *testing.T, rows []manifestRow) {
	for _, m := range rows {
		t.Run(strings.TrimSuffix(m["file"], ".sgf"), func(t *testing.T) {
			t.Parallel()
			checkGame(t, m)
		})
	}
}

func checkGame(t *testing.T, m manifestRow) {
	rec, err := ReadFile(filepath.Join(m["dir"], m["file"]))
	if err != nil {
		t.Fatalf("ReadFile: %v", err)
	}
	if want := manifestVariants[m["variant"]]; rec.Variant != want {
		t.Errorf("variant = %q; want %q (SU[%s])", rec.Variant, want, m["variant"])
	}
	rep, err := rec.Replay()
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	if rw := m["rule_winner"]; rw != "" {
		idx, name, _ := strings.Cut(rw, " ")
		want, _ := strconv.Atoi(strings.TrimPrefix(idx, "P"))
		if rep.Result.Winner != want {
			t.Errorf("winner = %d; want %d (%s)", rep.Result.Winner, want, rw)
		}
		if got := rec.Players[want]; got != name {
			t.Errorf("player %d's name = %q; want %q", want, got, name)
		}
	}
	// RE[] is Boardspace's own verdict, e.g. "Game won by SmartBot", in the
	// players' language; it names the winner (sometimes with a suffix such
	// as guest1397). It also covers resignations and wins on time.
	if m["RE"] != "" {
		if w := rep.Result.Winner; w < 0 || !strings.Contains(rec.ResultText, rec.Players[w]) {
			t.Errorf("winner %d (%v) does not agree with RE[%s]", w, rec.Players, rec.ResultText)
		}
	}
	if want, ok := manifestEndings[m["ended_by"]]; !ok {
		t.Errorf("MANIFEST.tsv ended_by = %q is new to this test", m["ended_by"])
	} else if rep.Result.Outcome != want {
		t.Errorf("outcome = %s; want %s (ended_by %s)", rep.Result.Outcome, want, m["ended_by"])
	}
	got := measure(rec, rep)
	for _, c := range []struct {
		col string
		got int
	}{
		{"turns", got.turns},
		{"captures_turns", got.capturesTurns},
		{"max_chain", got.maxChain},
		{"isolation_groups", got.isolationGroups},
		{"full_board_claim", got.fullBoardClaim},
		{"own_capture_placements", got.ownCapturePlacements},
		{"placements_without_removal", got.placementsWithoutRemoval},
		{"undo_ops", got.undo},
	} {
		if want := m.int(t, c.col); c.got != want {
			t.Errorf("%s = %d; want %d", c.col, c.got, want)
		}
	}
}

// sampleFiles lists the built-in games, then those of the larger sample
// when it is there.
func sampleFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{samples.BuiltinDir(), samples.ExtendedDir()} {
		if dir == "" {
			continue
		}
		fs, err := filepath.Glob(filepath.Join(dir, "*.sgf"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	if len(files) == 0 {
		t.Fatal("no sample games: internal/samples/boardspace is empty")
	}
	return files
}

func readSample(t testing.TB, path string) *Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := ReadSGF(io.Reader(f))
	if err != nil {
		t.Fatalf("ReadSGF(%s): %v", filepath.Base(path), err)
	}
	return rec
}
