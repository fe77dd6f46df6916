package layers

import (
	"bufio"
	"bytes"
	"fmt"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Load reads the module at root (the directory of its go.mod): every
// package's imports, from its non-test Go files of every platform (only
// files constrained by the "ignore" tag are left out), and its package
// comment. It skips testdata, vendor and directories whose names start
// with "." or "_", as the go command does.
func Load(root string) (module string, g Graph, docs map[string]string, err error) {
	module, err = modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", nil, nil, err
	}
	g, docs = Graph{}, map[string]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			n := d.Name()
			if p != root && (n == "testdata" || n == "vendor" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			if p != root {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		return loadFile(root, module, p, fset, g, docs)
	})
	if err != nil {
		return "", nil, nil, err
	}
	for _, imps := range g {
		sort.Strings(imps)
	}
	return module, g, docs, nil
}

// loadFile adds one Go file at p to g and docs, unless a build
// constraint leaves it out of every build.
func loadFile(root, module, p string, fset *token.FileSet, g Graph, docs map[string]string) error {
	src, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if ignored(src) {
		return nil
	}
	f, err := parser.ParseFile(fset, p, src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, filepath.Dir(p))
	if err != nil {
		return err
	}
	pkg := filepath.ToSlash(rel)
	if pkg == "." {
		pkg = ""
	}
	seen := map[string]bool{}
	for _, imp := range g[pkg] {
		seen[imp] = true
	}
	if _, ok := g[pkg]; !ok {
		g[pkg] = nil
	}
	for _, spec := range f.Imports {
		ip, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return fmt.Errorf("%s: import %s: %v", p, spec.Path.Value, err)
		}
		switch {
		case ip == module:
			ip = ""
		case strings.HasPrefix(ip, module+"/"):
			ip = strings.TrimPrefix(ip, module+"/")
		case !external(ip):
			continue // the standard library
		}
		if !seen[ip] {
			seen[ip] = true
			g[pkg] = append(g[pkg], ip)
		}
	}
	if f.Doc != nil {
		if docs[pkg] != "" {
			docs[pkg] += "\n"
		}
		docs[pkg] += f.Doc.Text()
	} else if _, ok := docs[pkg]; !ok {
		docs[pkg] = ""
	}
	return nil
}

// modulePath reads the module line of a go.mod.
func modulePath(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	return "", fmt.Errorf("%s: no module line", gomod)
}

// ignored reports whether a file's build constraint needs the "ignore"
// tag, the convention for files no build includes. Every other
// constraint (a GOOS, say) keeps the file: the layers hold on every
// platform.
func ignored(src []byte) bool {
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			return false
		}
		if !constraint.IsGoBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return false
		}
		mentions := false
		expr.Eval(func(tag string) bool { mentions = mentions || tag == "ignore"; return true })
		return mentions && !expr.Eval(func(tag string) bool { return tag != "ignore" })
	}
	return false
}
