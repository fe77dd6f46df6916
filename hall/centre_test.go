package hall

import (
	"strings"
	"testing"
)

// TestCentreACLRights: each account's lines on the centre, and nothing
// more.
func TestCentreACLRights(t *testing.T) {
	acl, err := CentreACL(Centre{Operators: []string{"op"}, Viewers: []string{"sb"},
		Bridges: []Bridge{{Name: "hall-a", Centre: "c:1883", Username: "bridge-a", Boards: []string{"a1"}}}})
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string][]string{}
	user := ""
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
	viewer := "read zertz/+/status|read zertz/+/state|read zertz/+/moves|read zertz/+/events|read zertz/+/record|read $SYS/broker/connection/+/state"
	want := map[string]string{
		"":         viewer,
		"sb":       viewer,
		"bridge-a": "write zertz/a1/status|write zertz/a1/state|write zertz/a1/record|write zertz/a1/moves|write zertz/a1/events|read zertz/a1/cmd/#|readwrite $SYS/broker/connection/hall-a/state",
		"op":       "write zertz/+/cmd/#|read zertz/#|read $SYS/broker/connection/+/state",
	}
	for u, w := range want {
		if got := strings.Join(sections[u], "|"); got != w {
			t.Errorf("user %q: %s; want %s", u, got, w)
		}
	}
	if len(sections) != len(want) {
		t.Errorf("sections %v", sections)
	}
	anon, err := CentreACL(Centre{AnonymousBridges: true})
	if err != nil || !strings.Contains(anon, "topic write zertz/+/moves\n") || !strings.Contains(anon, "topic read zertz/+/cmd/#\n") || strings.Contains(anon, "write zertz/+/cmd") {
		t.Errorf("anonymous bridges (%v):\n%s", err, anon)
	}
	for _, c := range []Centre{
		{Operators: []string{"a", "a"}},
		{Bridges: []Bridge{{Name: "h", Centre: "c:1"}}}, // no account
		{Bridges: []Bridge{{Name: "h", Centre: "c"}}},
		{Viewers: []string{"a b"}},
		{Prefix: "$SYS/"},
	} {
		if acl, err := CentreACL(c); err == nil {
			t.Errorf("CentreACL(%+v) accepted:\n%s", c, acl)
		}
	}
}
