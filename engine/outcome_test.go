package engine

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestWordsText: the phases and reasons write as their words and read back;
// an unknown word reads back as itself (a newer board's state must still
// decode); only the arbiter's reasons are off the board.
func TestWordsText(t *testing.T) {
	type st struct {
		Phase  Phase  `json:"phase"`
		Result Reason `json:"result"`
	}
	for _, c := range []struct {
		in   st
		want string
	}{
		{st{PhaseOver, ReasonResignation}, `{"phase":"over","result":"resignation"}`},
		{st{PhaseCapture, ""}, `{"phase":"capture","result":""}`},
		{st{PhasePlace, ""}, `{"phase":"place","result":""}`},
		{st{"", ""}, `{"phase":"","result":""}`},
		{st{"pondering", "stalemate"}, `{"phase":"pondering","result":"stalemate"}`},
	} {
		b, err := json.Marshal(c.in)
		if err != nil || string(b) != c.want {
			t.Errorf("%+v writes %s, %v; want %s", c.in, b, err, c.want)
		}
		var back st
		if err := json.Unmarshal(b, &back); err != nil || back != c.in {
			t.Errorf("%s reads back %+v, %v; want %+v", b, back, err, c.in)
		}
	}
	for _, r := range []Reason{ReasonTime, ReasonResignation, ReasonAdjudication, ReasonDraw} {
		if !r.OffBoard() {
			t.Errorf("%q is not off the board", r)
		}
	}
	for _, r := range []Reason{ReasonCaptures, ReasonFullBoard, ReasonRepetition, ReasonNoMoves, "", "stalemate"} {
		if r.OffBoard() {
			t.Errorf("%q is off the board", r)
		}
	}
}

// TestPositionPhase: along a whole game, the phase is place while a
// placement is due, capture exactly when a capture is compulsory, and over
// once the game is.
func TestPositionPhase(t *testing.T) {
	b, rules, err := ParseVariant("37")
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(NewPosition(b, rules, 0))
	seen := map[Phase]int{}
	for i := 0; ; i++ {
		p := g.Position()
		want := PhasePlace
		switch {
		case p.Result().Over:
			want = PhaseOver
		case p.HasCapture():
			want = PhaseCapture
		}
		if ph := p.Phase(); ph != want || ph.Over() != (want == PhaseOver) {
			t.Fatalf("after %d turns (%s): phase %q; want %q", i, p, ph, want)
		}
		seen[want]++
		if want == PhaseOver {
			break
		}
		turns := p.LegalTurns(nil)
		if len(turns) == 0 {
			t.Fatal("no legal turn in a game not over")
		}
		if err := g.Play(turns[(i*7)%len(turns)]); err != nil {
			t.Fatal(err)
		}
	}
	if seen[PhasePlace] == 0 || seen[PhaseCapture] == 0 || seen[PhaseOver] != 1 {
		t.Errorf("the game went through the phases %v; want every one", seen)
	}
}

// The words of phases, results and modes: code outside a codec compares
// with the typed constants (engine.PhaseOver, engine.ReasonDraw,
// referee.Tournament), never with these literals.
var words = map[string]bool{
	"over": true, "place": true, "capture": true,
	"captures": true, "full-board": true, "repetition": true, "no-moves": true,
	"time": true, "resignation": true, "adjudication": true, "draw": true,
	"casual": true, "tournament": true,
}

// codecs are the functions that read the words themselves, by file and
// name: there a literal is the codec's business.
var codecs = map[string]bool{
	// The JSON move object: its kind (place, capture, pass) and its
	// marble's source (pool, captures) are the move's words, not a
	// phase's or a result's.
	"engine/notation.go Turn": true,
}

// wordCompares lists the comparisons (==, != and switch cases) of an
// expression with one of the words, in one file's source, outside the
// codecs. "place" and
// "capture" are also the kinds of a move (engine.MoveObject's Kind): a
// comparison whose other side is named for a kind is not a phase's.
func wordCompares(fset *token.FileSet, name string, src any) ([]string, error) {
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		return nil, err
	}
	word := func(e ast.Expr) (string, bool) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(lit.Value)
		return s, err == nil && words[s]
	}
	kindOf := func(e ast.Expr) bool {
		var n string
		switch x := e.(type) {
		case *ast.Ident:
			n = x.Name
		case *ast.SelectorExpr:
			n = x.Sel.Name
		}
		return strings.Contains(strings.ToLower(n), "kind")
	}
	moveKind := func(w string, other ast.Expr) bool {
		return (w == "place" || w == "capture") && other != nil && kindOf(other)
	}
	var found []string
	flag := func(pos token.Pos, w string) {
		found = append(found, fset.Position(pos).String()+": "+strconv.Quote(w))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncDecl:
			return !codecs[filepath.ToSlash(name)+" "+x.Name.Name]
		case *ast.BinaryExpr:
			if x.Op != token.EQL && x.Op != token.NEQ {
				return true
			}
			if w, ok := word(x.X); ok && !moveKind(w, x.Y) {
				flag(x.Pos(), w)
			}
			if w, ok := word(x.Y); ok && !moveKind(w, x.X) {
				flag(x.Pos(), w)
			}
		case *ast.SwitchStmt:
			for _, s := range x.Body.List {
				for _, e := range s.(*ast.CaseClause).List {
					if w, ok := word(e); ok && !moveKind(w, x.Tag) {
						flag(e.Pos(), w)
					}
				}
			}
		}
		return true
	})
	return found, nil
}

// TestWordCompares fails on a comparison of a phase's, a result's or a
// mode's word as a string literal in code, outside a codec: once typed,
// the words live in one place each (engine/outcome.go, referee.Mode), and
// this keeps string compares from creeping back. Command-line flags and
// configuration keys are not compared this way either. Tests may compare
// the wire's words: they check the contract.
func TestWordCompares(t *testing.T) {
	// The checker itself finds what it must.
	fset := token.NewFileSet()
	bad := "package x\nfunc f(s struct{ Phase, Result, Kind string }) bool {\n\tswitch s.Result {\n\tcase \"draw\":\n\t}\n\treturn s.Phase != \"over\" || s.Kind == \"capture\" || \"tournament\" == s.Result\n}\n"
	got, err := wordCompares(fset, "x.go", bad)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || !strings.Contains(got[0], `"draw"`) || !strings.Contains(got[1], `"over"`) || !strings.Contains(got[2], `"tournament"`) {
		t.Fatalf("the checker found %q in\n%s\nwant draw, over and tournament (not the move kind)", got, bad)
	}

	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module's root: %v", err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		found, err := wordCompares(fset, rel, src)
		if err != nil {
			return err
		}
		for _, f := range found {
			t.Errorf("%s: compares a phase's, result's or mode's word as a string; use the typed constant (engine.Phase, engine.Reason, referee.Mode)", f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Errorf("checked %d Go files under %s; the tree has hundreds", files, root)
	}
}
