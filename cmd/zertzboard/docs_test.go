package main

import (
	"bufio"
	"bytes"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/broadcast"
	cmdset "github.com/zertzboard/zertzboard/command"
)

// contractsDoc is the reference of the command line, among other contracts.
const contractsDoc = "../../docs/CONTRACTS.md"

var (
	// A command's section: ### `zertzboard NAME` …
	docCommand = regexp.MustCompile("^### `zertzboard ([a-z0-9-]+)`")
	// A flag's row in a command's table: | `--name` | … or | `-v` | …
	docFlag = regexp.MustCompile("^\\| `--?([a-zA-Z0-9-]+)` \\|")
	// A flag in --help output (flag.PrintDefaults): two spaces, a dash.
	helpFlag = regexp.MustCompile(`^  -([a-zA-Z0-9-]+)`)
)

// documentedCommands reads docs/CONTRACTS.md: each command's section and
// the flags its table lists.
func documentedCommands(t *testing.T) map[string][]string {
	t.Helper()
	f, err := os.Open(contractsDoc)
	if err != nil {
		t.Fatalf("the contracts reference: %v", err)
	}
	defer f.Close()
	docs := map[string][]string{}
	cur := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := docCommand.FindStringSubmatch(line); m != nil {
			cur = m[1]
			if _, dup := docs[cur]; dup {
				t.Errorf("%s documents %s twice", contractsDoc, cur)
			}
			docs[cur] = []string{}
			continue
		}
		// A command's section ends at the next heading of its level or
		// above; its own sub-headings (####) keep it open.
		if strings.HasPrefix(line, "## ") || strings.HasPrefix(line, "### ") {
			cur = ""
		}
		if m := docFlag.FindStringSubmatch(line); m != nil && cur != "" {
			docs[cur] = append(docs[cur], m[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return docs
}

// helpFlags runs "zertzboard NAME --help" and returns the flags it lists.
func helpFlags(t *testing.T, name string) []string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{name, "--help"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("%s --help: exit %d", name, code)
	}
	var flags []string
	for _, line := range strings.Split(stdout.String()+stderr.String(), "\n") {
		if m := helpFlag.FindStringSubmatch(line); m != nil {
			flags = append(flags, m[1])
		}
	}
	return flags
}

// Every command and every flag is in docs/CONTRACTS.md, and the document
// lists no command or flag that is gone. A new flag without its row in
// the command's table fails here.
func TestContractsDocListsEveryCommandAndFlag(t *testing.T) {
	docs := documentedCommands(t)
	for name := range commands {
		t.Run(name, func(t *testing.T) {
			documented, ok := docs[name]
			if !ok {
				t.Fatalf("%s has no section \"### `zertzboard %s`\"", contractsDoc, name)
			}
			want := helpFlags(t, name)
			if len(want) == 0 {
				t.Fatalf("%s --help lists no flags; is the help format still flag.PrintDefaults?", name)
			}
			sort.Strings(want)
			got := append([]string(nil), documented...)
			sort.Strings(got)
			for _, f := range missing(want, got) {
				t.Errorf("%s: flag -%s of %s is not in its table", contractsDoc, f, name)
			}
			for _, f := range missing(got, want) {
				t.Errorf("%s: the table of %s lists -%s, which %s --help does not have", contractsDoc, name, f, name)
			}
		})
	}
	for name := range docs {
		if _, ok := commands[name]; !ok {
			t.Errorf("%s documents a command %q that is not registered", contractsDoc, name)
		}
	}
}

// missing returns the members of want (sorted) that are not in have
// (sorted).
func missing(want, have []string) []string {
	var out []string
	for _, w := range want {
		i := sort.SearchStrings(have, w)
		if i == len(have) || have[i] != w {
			out = append(out, w)
		}
	}
	return out
}

// Every event kind the referee and the broadcast emit, every MQTT topic and
// every command is in docs/CONTRACTS.md's tables.
func TestContractsDocListsEveryEventTopicAndCommand(t *testing.T) {
	doc, err := os.ReadFile(contractsDoc)
	if err != nil {
		t.Fatalf("the contracts reference: %v", err)
	}
	row := func(what, name string) {
		t.Helper()
		if !bytes.Contains(doc, []byte("| `"+name+"` |")) {
			t.Errorf("%s: %s %q has no row in a table", contractsDoc, what, name)
		}
	}
	// The kinds are read from the source, so that a new kind needs no
	// change here to be checked.
	kindRE := regexp.MustCompile(`Kind\(\) string\s*\{\s*return "([a-z-]+)"`)
	replyRE := regexp.MustCompile(`kind: "([a-z-]+)"`)
	var kinds []string
	for _, src := range []string{"../../referee/events.go", "../../broadcast/publisher.go", "../../controller/commands.go"} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range kindRE.FindAllSubmatch(b, -1) {
			kinds = append(kinds, string(m[1]))
		}
		for _, m := range replyRE.FindAllSubmatch(b, -1) {
			kinds = append(kinds, string(m[1]))
		}
	}
	if len(kinds) < 13 {
		t.Fatalf("found %d event kinds in the source (%v); want at least 13: has the source moved?", len(kinds), kinds)
	}
	for _, k := range kinds {
		row("event", k)
	}
	for _, topic := range []string{broadcast.TopicStatus, broadcast.TopicState, broadcast.TopicMoves, broadcast.TopicEvents, broadcast.TopicRecord, broadcast.TopicCmd + "<name>"} {
		row("topic", topic)
	}
	// Every command the board takes on cmd/, from the codec's list: a new
	// command needs no change here to be checked.
	for _, cmd := range cmdset.WireNames() {
		row("command", cmd)
	}
}
