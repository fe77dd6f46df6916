package engine

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// rulesDoc is the rules reference whose examples this test runs.
const rulesDoc = "../docs/RULES.md"

// docExample is one ```position box of the rules reference.
type docExample struct {
	lines []string // the position, then the checks
	nums  []int    // the line number of each in the file
}

// readDocExamples returns the ```position boxes of the rules reference.
func readDocExamples(t *testing.T) []docExample {
	t.Helper()
	f, err := os.Open(rulesDoc)
	if err != nil {
		t.Fatalf("the rules reference: %v", err)
	}
	defer f.Close()
	var out []docExample
	var cur *docExample
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case cur == nil && line == "```position":
			cur = &docExample{}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil && line != "":
			cur.lines = append(cur.lines, line)
			cur.nums = append(cur.nums, n)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Fatalf("%s: the last position box is not closed", rulesDoc)
	}
	return out
}

// The examples of docs/RULES.md are what the engine does: every free
// ring, capture chain, legal and illegal turn, claim and result they show.
func TestRulesDocExamples(t *testing.T) {
	examples := readDocExamples(t)
	// The reference has a box for each rule it illustrates; losing boxes
	// (a renamed fence, a broken parse) must not pass silently.
	if len(examples) < 11 {
		t.Fatalf("%s has %d position boxes; want at least 11", rulesDoc, len(examples))
	}
	for _, ex := range examples {
		ex := ex
		if len(ex.lines) == 0 {
			t.Fatalf("%s: an empty position box", rulesDoc)
		}
		t.Run("line"+strconv.Itoa(ex.nums[0]), func(t *testing.T) {
			checkDocExample(t, ex)
		})
	}
}

func checkDocExample(t *testing.T, ex docExample) {
	p, err := ParsePosition(ex.lines[0])
	if err != nil {
		t.Fatalf("%s:%d: %v", rulesDoc, ex.nums[0], err)
	}
	b := p.Board()
	played := false
	for i, line := range ex.lines[1:] {
		at := rulesDoc + ":" + strconv.Itoa(ex.nums[i+1])
		word, rest, _ := strings.Cut(line, " ")
		args := strings.Fields(rest)
		turn := func() Turn {
			t.Helper()
			if len(args) == 0 {
				t.Fatalf("%s: %q names no turn", at, line)
			}
			tn, err := ParseTurn(b, args[0])
			if err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			return tn
		}
		switch word {
		case "free":
			if got := labelList(b, p.FreeRings()); got != strings.Join(args, " ") {
				t.Errorf("%s: free rings of %s are %q; the doc says %q", at, p, got, rest)
			}
		case "captures":
			var chains []string
			for _, c := range p.CaptureTurns() {
				chains = append(chains, FormatTurn(b, c))
			}
			got := strings.Join(chains, " ")
			if got == "" {
				got = "none"
			}
			if got != strings.Join(args, " ") {
				t.Errorf("%s: capture chains of %s are %q; the doc says %q", at, p, got, rest)
			}
		case "legal":
			if err := p.Check(turn()); err != nil {
				t.Errorf("%s: %v; the doc says it is legal", at, err)
			}
		case "illegal":
			err := p.Check(turn())
			var ite *IllegalTurnError
			if len(args) != 2 {
				t.Fatalf("%s: want \"illegal TURN RULE\"", at)
			}
			if !errors.As(err, &ite) || string(ite.Rule) != args[1] {
				t.Errorf("%s: Check(%s) = %v; the doc says it breaks %s", at, args[0], err, args[1])
			}
		case "play":
			q, err := p.Play(turn())
			if err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			p, played = q, true
		case "claimed":
			if !played {
				t.Fatalf("%s: claimed before any play", at)
			}
			if got := labelList(b, p.Claimed()); got != strings.Join(args, " ") {
				t.Errorf("%s: the turn claimed %q; the doc says %q", at, got, rest)
			}
		case "result":
			if got := p.Result().String(); got != rest {
				t.Errorf("%s: result %q; the doc says %q", at, got, rest)
			}
		default:
			t.Fatalf("%s: unknown check %q", at, word)
		}
	}
}

// labelList is cells as space-separated labels, or "none".
func labelList(b *Board, cs []Cell) string {
	if len(cs) == 0 {
		return "none"
	}
	ls := make([]string, len(cs))
	for i, c := range cs {
		ls[i] = b.Label(c)
	}
	return strings.Join(ls, " ")
}
