package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/zertzboard/zertzboard/internal/buildinfo"
)

func TestVersionCommandAndFlag(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		want := "zertzboard " + buildinfo.FromInfo(version, nil, false)
		if version == "" {
			info, ok := debug.ReadBuildInfo()
			want = "zertzboard " + buildinfo.FromInfo(version, info, ok)
		}
		got := stdout.String()
		if code != exitOK || !strings.HasPrefix(got, want+" (") || !strings.Contains(got, runtime.GOOS+"/"+runtime.GOARCH) || strings.Count(got, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want one line starting %q", args, code, got, stderr.String(), want)
		}
	}
	var stdout, stderr bytes.Buffer
	info, ok := debug.ReadBuildInfo()
	if code := run([]string{"version", "--short"}, &stdout, &stderr); code != exitOK || stdout.String() != buildinfo.FromInfo(version, info, ok)+"\n" {
		t.Errorf("version --short: exit %d, stdout %q", code, stdout.String())
	}
	if code := run([]string{"version", "extra"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), `"extra"`) {
		t.Errorf("version extra: exit %d, stderr %q", code, stderr.String())
	}
}

// The real stamping path: a binary linked with -X main.version=... prints
// that version. This builds the command, so it is skipped with -short.
func TestVersionStampedByLinker(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips linking a zertzboard binary")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to link a stamped binary")
	}
	bin := filepath.Join(t.TempDir(), "zertzboard")
	const want = "9.8.7~rc1+git20261122.223014.abcdef0"
	build := exec.Command(gobin, "build", "-trimpath", "-ldflags", "-X main.version="+want, "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", bin, err)
	}
	if !strings.HasPrefix(string(out), "zertzboard "+want+" (") {
		t.Errorf("stamped binary says %q, want the version %q", out, want)
	}
	if out, err := exec.Command(bin, "version", "--short").Output(); err != nil || string(out) != want+"\n" {
		t.Errorf("stamped binary: version --short says %q, %v; want %q", out, err, want)
	}
}
