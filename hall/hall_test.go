package hall

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the examples in firmware-config/mosquitto")

// The example in firmware-config/mosquitto: four boards, the arbiter, the
// scoreboard.
var example = Accounts{Boards: []string{"board-1", "board-2", "board-3", "board-4"}, Operators: []string{"arbiter"}, Viewers: []string{"scoreboard"}}

const (
	exampleDir    = "../firmware-config/mosquitto"
	examplePasswd = "/etc/mosquitto/zertzboard.passwd"
	exampleACL    = "/etc/mosquitto/zertzboard.acl"
)

// TestExamples: the files in firmware-config/mosquitto are what the package
// writes (go test ./hall -update rewrites them).
func TestExamples(t *testing.T) {
	acl, err := ACL(example)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"zertzboard.acl": acl,
		"mosquitto.conf": Config("0.0.0.0", 1883, examplePasswd, exampleACL),
	}
	for name, want := range files {
		path := filepath.Join(exampleDir, name)
		if *update {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s is not what package hall writes; run go test ./hall -update", path)
		}
	}
}

// TestACLRights: each role's lines, and nothing more.
func TestACLRights(t *testing.T) {
	acl, err := ACL(Accounts{Boards: []string{"t1"}, Operators: []string{"op"}, Viewers: []string{"sb"}})
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string][]string{}
	user := "" // anonymous
	for _, line := range strings.Split(acl, "\n") {
		switch {
		case strings.HasPrefix(line, "user "):
			user = strings.TrimPrefix(line, "user ")
		case strings.HasPrefix(line, "topic "):
			sections[user] = append(sections[user], strings.TrimPrefix(line, "topic "))
		case line == "" || strings.HasPrefix(line, "#"):
		default:
			t.Errorf("unexpected line %q", line)
		}
	}
	viewer := "read zertz/+/status|read zertz/+/state|read zertz/+/moves|read zertz/+/events|read zertz/+/record"
	want := map[string]string{
		"":   viewer,
		"sb": viewer,
		"t1": "write zertz/t1/#|read zertz/t1/cmd/#|read zertz/t1/status",
		"op": "write zertz/+/cmd/#|read zertz/#",
	}
	for u, w := range want {
		if got := strings.Join(sections[u], "|"); got != w {
			t.Errorf("user %q: %s; want %s", u, got, w)
		}
	}
	if len(sections) != len(want) {
		t.Errorf("sections %v", sections)
	}
}

func TestACLRefusesBadNames(t *testing.T) {
	for _, a := range []Accounts{
		{Boards: []string{"bad/board"}},
		{Boards: []string{"b1"}, Operators: []string{"b1"}},
		{Operators: []string{"two words"}},
		{Viewers: []string{"a#"}},
		{Viewers: []string{""}},
		{Prefix: "zertz/#/", Boards: []string{"b1"}},
		{Prefix: "zertz", Boards: []string{"b1"}},
		{Boards: []string{"b1\nuser root"}},
	} {
		if acl, err := ACL(a); err == nil {
			t.Errorf("ACL(%+v) accepted:\n%s", a, acl)
		}
	}
}
