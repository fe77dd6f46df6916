// Command funclen lists the functions longer than a limit, longest first,
// so a maintainer can see which ones to split. "make funclen" runs it over
// the non-test Go files of the tree.
//
//	go run ./tools/funclen [--max 80] [--tests] [DIR...]
//
// A function's length is the number of lines from its "func" keyword to
// its closing brace, both included, as go/ast sees them. Each line of the
// output is "LINES PATH:LINE NAME", where NAME is Type.Method for a method.
// It exits with status 0 whatever it finds: it reports, it does not judge.
//
// It is a tool: it imports only the standard library.
//
// Layer: cmd. May import: base, game, drivers, sensors, services,
// presentation, config, simulator, rig, board, players, cmd.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Func is one function found too long.
type Func struct {
	Name  string // Type.Method or the function's name
	File  string
	Line  int
	Lines int
}

func main() {
	max := flag.Int("max", 80, "report functions with more than `N` lines")
	tests := flag.Bool("tests", false, "include _test.go files")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: funclen [--max N] [--tests] [DIR...]\n\n"+
			"Lists the Go functions under each DIR (default .) longer than N lines,\n"+
			"longest first, as \"LINES PATH:LINE NAME\". Skips vendor, testdata and\n"+
			"hidden directories.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *max < 1 {
		fmt.Fprintf(os.Stderr, "funclen: --max %d: want at least 1\n", *max)
		os.Exit(2)
	}
	dirs := flag.Args()
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	var all []Func
	for _, d := range dirs {
		fs, err := Scan(d, *max, *tests)
		if err != nil {
			fmt.Fprintln(os.Stderr, "funclen:", err)
			os.Exit(1)
		}
		all = append(all, fs...)
	}
	Print(os.Stdout, all)
}

// Print writes fs longest first (then by file and line) and a total.
func Print(w io.Writer, fs []Func) {
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].Lines != fs[j].Lines {
			return fs[i].Lines > fs[j].Lines
		}
		if fs[i].File != fs[j].File {
			return fs[i].File < fs[j].File
		}
		return fs[i].Line < fs[j].Line
	})
	for _, f := range fs {
		fmt.Fprintf(w, "%4d %s:%d %s\n", f.Lines, f.File, f.Line, f.Name)
	}
	fmt.Fprintf(w, "%d functions\n", len(fs))
}

// Scan walks root and returns the functions longer than max lines in its
// Go files (test files too when tests is set).
func Scan(root string, max int, tests bool) ([]Func, error) {
	var out []Func
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if path != root && (n == "vendor" || n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || (!tests && strings.HasSuffix(path, "_test.go")) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fs, err := Long(path, src, max)
		if err != nil {
			return err
		}
		out = append(out, fs...)
		return nil
	})
	return out, err
}

// Long parses one file and returns its functions longer than max lines.
func Long(path string, src []byte, max int) ([]Func, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []Func
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		start := fset.Position(fd.Pos()).Line
		n := fset.Position(fd.End()).Line - start + 1
		if n > max {
			out = append(out, Func{Name: name(fd), File: path, Line: start, Lines: n})
		}
	}
	return out, nil
}

// name is Type.Method for a method, the function's name otherwise.
func name(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}
