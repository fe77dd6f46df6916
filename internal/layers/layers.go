// Package layers states zertzboard's layers: which packages belong to
// each, which layers each may import, and the one line every package
// comment carries to say so. Check holds an import graph against the
// table and names every import that runs back up and every cycle; Load
// reads the graph and the package comments of a source tree with
// go/parser alone (no go command, no build tags: every platform's files
// count). layers_test.go runs both over the whole tree, so a package that
// imports above its layer, or a new package missing from the table, fails
// "go test ./...".
//
// The layers, lowest first (Table has the packages of each):
//
//	base          helpers that know nothing of ZÈRTZ: text, IDs, limits, INI,
//	              the font, the patch stream, test harnesses
//	game          the rules, the clocks, the referee, records, the wire shapes
//	drivers       hardware/...: the Pi's buses and chips
//	sensors       sensors/...: raw counts into frames
//	services      the parts of one board's runtime, each tested alone:
//	              controller, journal, analyst, broadcast, broker, hall
//	presentation  display and the scoreboard
//	config        the configuration file
//	simulator     sim: the virtual hardware under the drivers
//	rig           the bench: opening, calibrating and testing the hardware
//	board         one board's runtime, which joins all of the above
//	players       sim/...: the simulated players, who play on a board
//	cmd           cmd/... and tools/...: flags, usage and printing
//
// A layer may import its own and the layers its entry names, all listed
// before it, so the layers themselves cannot form a cycle. Only tests
// (files ending in _test.go) are exempt. Only the layers marked Hardware
// may import periph.io: the game, the sensors' logic, the services and
// what the players see run the same with no hardware library at all.
//
// Layer: base. May import: base.
package layers

import (
	"fmt"
	"sort"
	"strings"
)

// A Layer is one level of the tree.
type Layer struct {
	Name string
	// Packages are paths inside the module: "engine" is that package
	// alone, "engine/..." is it and every package below it. When several
	// entries match a package, the longest wins, and an exact path wins
	// over a "/..." of the same length.
	Packages []string
	// May names the other layers this one may import; each must be listed
	// before it in the table. Its own layer it may always import.
	May []string
	// Hardware: the layer may import periph.io (the hardware libraries).
	Hardware bool
}

var (
	below4 = []string{"base", "game", "drivers", "sensors"}
	// everything up to the rig: what one board's runtime may join.
	belowBoard = []string{"base", "game", "drivers", "sensors", "services", "presentation", "config", "simulator", "rig"}
)

// Table is zertzboard's layers, lowest first.
var Table = []Layer{
	{Name: "base", Packages: []string{"internal/...", "i18n", "display/face", "scoreboard/stream/..."}},
	{Name: "game", May: []string{"base"}, Packages: []string{
		"engine/...", "clock", "settle", "referee", "record", "framelog", "wire",
		"command", // the typed commands: a leaf under the runtime's parts
	}},
	{Name: "drivers", May: []string{"base", "game"}, Hardware: true, Packages: []string{"hardware/..."}},
	{Name: "sensors", May: []string{"base", "game", "drivers"}, Packages: []string{"sensors/..."}},
	{Name: "services", May: []string{"base", "game"}, Packages: []string{
		"controller/...", "journal/...", "analyst/...", "broadcast/...", "broker/...", "hall/...",
	}},
	{Name: "presentation", May: []string{"base", "game", "services"}, Packages: []string{"display/...", "scoreboard/..."}},
	{Name: "config", May: []string{"base", "game", "drivers", "sensors", "services", "presentation"}, Hardware: true, Packages: []string{"config/..."}},
	{Name: "simulator", May: below4, Hardware: true, Packages: []string{"sim"}},
	{Name: "rig", May: []string{"base", "game", "drivers", "sensors", "presentation", "config", "simulator"}, Hardware: true, Packages: []string{"rig/..."}},
	{Name: "board", May: belowBoard, Hardware: true, Packages: []string{"board/..."}},
	{Name: "players", May: append(append([]string{}, belowBoard...), "board"), Hardware: true, Packages: []string{"sim/..."}},
	{Name: "cmd", May: append(append([]string{}, belowBoard...), "board", "players"), Hardware: true, Packages: []string{"cmd/...", "tools/..."}},
}

// Rule is the sentence a package comment of layer l carries:
// "Layer: game. May import: base, game." It names the layer and every
// layer it may import, its own last.
func Rule(l Layer) string {
	return fmt.Sprintf("Layer: %s. May import: %s.", l.Name, strings.Join(append(append([]string{}, l.May...), l.Name), ", "))
}

// Graph maps each package, by its path inside the module ("engine"), to
// its imports: the module's own by their path inside it, the others
// (periph.io/..., github.com/...) in full. The standard library is left
// out.
type Graph map[string][]string

// Problem is one broken rule, said in a sentence.
type Problem string

// Of returns the layer of pkg, or false when no entry matches it.
func Of(table []Layer, pkg string) (Layer, bool) {
	best, bestLen, bestExact, found := Layer{}, -1, false, false
	for _, l := range table {
		for _, p := range l.Packages {
			base, tree := strings.CutSuffix(p, "/...")
			exact := !tree
			if !(pkg == base || (tree && strings.HasPrefix(pkg, base+"/"))) {
				continue
			}
			if len(base) > bestLen || (len(base) == bestLen && exact && !bestExact) {
				best, bestLen, bestExact, found = l, len(base), exact, true
			}
		}
	}
	return best, found
}

// Check returns every broken rule of g under table, sorted: a layer
// entry that names a layer not listed before it, a package in no layer,
// an import of a layer its own may not import, periph.io imported where
// Hardware is false, and every import cycle of the module's packages.
func Check(table []Layer, g Graph) []Problem {
	var out []Problem
	add := func(format string, args ...any) { out = append(out, Problem(fmt.Sprintf(format, args...))) }

	index := map[string]int{}
	for i, l := range table {
		if _, dup := index[l.Name]; dup {
			add("the table lists layer %s twice", l.Name)
		}
		index[l.Name] = i
	}
	for i, l := range table {
		for _, m := range l.May {
			j, ok := index[m]
			switch {
			case !ok:
				add("layer %s may import %s, which is no layer of the table", l.Name, m)
			case j >= i:
				add("layer %s may import %s, which is not listed before it: the layers would run in a cycle (list them lowest first)", l.Name, m)
			}
		}
	}

	for _, pkg := range sortedKeys(g) {
		l, ok := Of(table, pkg)
		if !ok {
			add("package %s is in no layer: add it to layers.Table (internal/layers/layers.go)", pkg)
			continue
		}
		may := map[string]bool{l.Name: true}
		for _, m := range l.May {
			may[m] = true
		}
		for _, imp := range g[pkg] {
			if external(imp) {
				if strings.HasPrefix(imp, "periph.io/") && !l.Hardware {
					add("%s imports %s: layer %s may not import the hardware libraries", pkg, imp, l.Name)
				}
				continue
			}
			il, ok := Of(table, imp)
			if !ok {
				continue // reported as a package in no layer, if it is in the tree
			}
			if !may[il.Name] {
				add("%s imports %s, which runs back up: layer %s may import only %s, and %s is in layer %s",
					pkg, imp, l.Name, strings.Join(append(append([]string{}, l.May...), l.Name), ", "), imp, il.Name)
			}
		}
	}

	for _, c := range Cycles(g) {
		add("import cycle: %s -> %s", strings.Join(c, " -> "), c[0])
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Cycles returns each import cycle among the module's packages in g (a
// strongly connected component of more than one package, or a package
// importing itself), as a path that starts at its smallest package and
// follows imports back to it.
func Cycles(g Graph) [][]string {
	// Tarjan's algorithm, over the packages in sorted order so the result
	// is the same on every run.
	var (
		index   = map[string]int{}
		low     = map[string]int{}
		onStack = map[string]bool{}
		stack   []string
		next    int
		out     [][]string
	)
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range g[v] {
			if external(w) {
				continue
			}
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		comp := map[string]bool{}
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			comp[w] = true
			if w == v {
				break
			}
		}
		if len(comp) > 1 || imports(g, v, v) {
			out = append(out, path(g, comp))
		}
	}
	for _, v := range sortedKeys(g) {
		if _, seen := index[v]; !seen {
			visit(v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// path finds, inside one strongly connected component, the shortest
// cycle through its smallest package (breadth first), so the message
// shows one readable loop.
func path(g Graph, comp map[string]bool) []string {
	members := make([]string, 0, len(comp))
	for p := range comp {
		members = append(members, p)
	}
	sort.Strings(members)
	start := members[0]
	prev := map[string]string{}
	queue := []string{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range g[v] {
			if w == start {
				var rev []string
				for x := v; x != start; x = prev[x] {
					rev = append(rev, x)
				}
				cycle := []string{start}
				for i := len(rev) - 1; i >= 0; i-- {
					cycle = append(cycle, rev[i])
				}
				return cycle
			}
			if _, seen := prev[w]; !seen && comp[w] && w != start {
				prev[w] = v
				queue = append(queue, w)
			}
		}
	}
	return members // unreachable for a real component
}

func imports(g Graph, from, to string) bool {
	for _, w := range g[from] {
		if w == to {
			return true
		}
	}
	return false
}

// external reports whether an import path in a Graph is outside the
// module: its first element has a dot (periph.io, github.com, ...).
func external(imp string) bool {
	first, _, _ := strings.Cut(imp, "/")
	return strings.Contains(first, ".")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CheckDocs returns a problem for every package of docs (path inside the
// module to its package comment) whose comment does not carry its
// layer's Rule. Line breaks and runs of spaces in the comment count as
// one space, so the rule may wrap.
func CheckDocs(table []Layer, docs map[string]string) []Problem {
	var out []Problem
	for _, pkg := range sortedKeys(docs) {
		l, ok := Of(table, pkg)
		if !ok {
			continue // Check names it
		}
		doc := strings.Join(strings.Fields(docs[pkg]), " ")
		switch rule := Rule(l); {
		case doc == "":
			out = append(out, Problem(fmt.Sprintf("package %s has no package comment: say what it is, and end with %q", pkg, rule)))
		case !strings.Contains(doc, rule):
			out = append(out, Problem(fmt.Sprintf("package %s's comment does not state its layer: add %q", pkg, rule)))
		}
	}
	return out
}
