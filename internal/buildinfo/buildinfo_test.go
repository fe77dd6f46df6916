package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromInfo(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	devel := debug.Module{Path: "github.com/zertzboard/zertzboard", Version: "(devel)"}
	tagged := devel
	tagged.Version = "v1.2.3"
	for _, c := range []struct {
		name    string
		stamped string
		info    *debug.BuildInfo
		want    string
	}{
		{"stamped wins", "0.0~git20261122.223014.0e75f5d", &debug.BuildInfo{Main: tagged}, "0.0~git20261122.223014.0e75f5d"},
		{"no build info", "", nil, "devel"},
		{"module version from a tag", "", &debug.BuildInfo{Main: tagged}, "v1.2.3"},
		{"revision", "", &debug.BuildInfo{Main: devel, Settings: settings("vcs", "git", "vcs.revision", "0e75f5d1a2b3c4d5e6f708192a3b4c5d6e7f8091", "vcs.modified", "false")}, "devel-0e75f5d1a2b3"},
		{"dirty revision", "", &debug.BuildInfo{Main: devel, Settings: settings("vcs.revision", "0e75f5d", "vcs.modified", "true")}, "devel-0e75f5d+dirty"},
		{"go run: nothing recorded", "", &debug.BuildInfo{Main: devel}, "devel"},
	} {
		if got := FromInfo(c.stamped, c.info, c.info != nil); got != c.want {
			t.Errorf("%s: FromInfo = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestLine(t *testing.T) {
	if got := Line("1.2.3"); got != "zertzboard 1.2.3 ("+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH+")" {
		t.Errorf("Line = %q", got)
	}
	info, ok := debug.ReadBuildInfo()
	if got := Version(""); got != FromInfo("", info, ok) || got == "" {
		t.Errorf("Version(\"\") = %q; want what the toolchain recorded", got)
	}
	if !strings.HasPrefix(Line(""), "zertzboard "+Version("")+" (") {
		t.Errorf("Line(\"\") = %q", Line(""))
	}
}
