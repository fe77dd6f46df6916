package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const src = `package p

func short() {}

func long() {
	a := 1
	_ = a
}

type T[K any] struct{}

func (t *T[K]) Method() {
	b := 2
	_ = b
}

func (T[K]) Two() {
}
`

func TestLongCountsFromFuncToBrace(t *testing.T) {
	got, err := Long("p.go", []byte(src), 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []Func{{Name: "long", File: "p.go", Line: 5, Lines: 4}, {Name: "T.Method", File: "p.go", Line: 12, Lines: 4}}
	if len(got) != len(want) {
		t.Fatalf("Long = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Long[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := Long("bad.go", []byte("package p\nfunc {"), 3); err == nil {
		t.Error("Long of broken Go: no error")
	}
}

func TestScanSkipsTestsAndTestdataAndSorts(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"a.go":          src,
		"a_test.go":     src,
		"testdata/x.go": src,
		"sub/b.go":      "package b\n\nfunc huge() {\n\n\n\n\n\n}\n",
		".hidden/c.go":  src,
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fs, err := Scan(dir, 3, false)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	Print(&out, fs)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 || !strings.HasSuffix(lines[0], "huge") || !strings.HasPrefix(strings.TrimSpace(lines[0]), "7 ") || lines[3] != "3 functions" {
		t.Errorf("Print:\n%s", out.String())
	}
	withTests, err := Scan(dir, 3, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(withTests) != 5 {
		t.Errorf("with tests: %d functions, want 5", len(withTests))
	}
}
