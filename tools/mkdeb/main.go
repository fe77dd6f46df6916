// Command mkdeb builds zertzboard's Debian packages; "make deb" drives it.
//
//	mkdeb version
//	mkdeb build --arch arm64 --binary bin/deb/arm64/zertzboard --version V [--out dist]
//
// "version" prints the Debian version of the checkout (git describe, see
// deb.VersionFromGit). "build" packs a cross-built binary with the unit,
// the configuration and the docs from firmware-config/ and packaging/, and
// prints the path of the .deb it wrote: DIR/zertzboard_VERSION_ARCH.deb.
//
// Layer: cmd. May import: base, game, drivers, sensors, services,
// presentation, config, simulator, rig, board, players, cmd.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/zertzboard/zertzboard/internal/deb"
)

const defaultMaintainer = "zertzboard maintainers <zertzboard@users.noreply.github.com>"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func usage(w io.Writer) {
	fmt.Fprint(w, `Usage:
  mkdeb version
  mkdeb build --arch ARCH --binary FILE --version VERSION [--out DIR] [--root DIR] [--maintainer "Name <email>"]

version  prints the Debian version of the git checkout in the current
         directory, from "git describe --tags --always --dirty" and the
         commit's time: 0.0~git20261122.223014.0e75f5d before the first
         tag, 1.2.0 on tag v1.2.0, 1.2.0+git20261122.223014.0e75f5d after it.
build    writes OUT/zertzboard_VERSION_ARCH.deb and prints its path. ARCH is
         arm64 or armhf (or amd64, to try the package on a PC); the binary
         must be a Linux ELF executable for it. Timestamps come from
         SOURCE_DATE_EPOCH, else the commit's time, so a build is
         reproducible.

Examples:
  go run ./tools/mkdeb version
  make deb                      # both Pi packages into dist/
`)
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return 0
	}
	switch args[0] {
	case "version":
		if len(args) > 1 {
			fmt.Fprintf(stderr, "mkdeb version: unexpected argument %q\n", args[1])
			return 2
		}
		v, err := gitVersion(".")
		if err != nil {
			fmt.Fprintf(stderr, "mkdeb version: %v\n(outside a git checkout, give the version: make deb DEB_VERSION=1.2.3 SOURCE_DATE_EPOCH=$(date +%%s))\n", err)
			return 1
		}
		fmt.Fprintln(stdout, v)
		return 0
	case "build":
		return runBuild(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "mkdeb: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func runBuild(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mkdeb build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(stderr) }
	arch := fs.String("arch", "", "Debian architecture: arm64, armhf (or amd64)")
	binary := fs.String("binary", "", "the zertzboard `file` built for ARCH")
	version := fs.String("version", "", "the package's Debian version (mkdeb version)")
	out := fs.String("out", "dist", "output `directory`")
	root := fs.String("root", ".", "the repository's `directory` (firmware-config/, packaging/)")
	maintainer := fs.String("maintainer", defaultMaintainer, "the Maintainer field")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 || *arch == "" || *binary == "" || *version == "" {
		fmt.Fprintln(stderr, "mkdeb build: --arch, --binary and --version are required, and nothing else")
		return 2
	}
	bin, err := readLimited(*binary, deb.MaxFileSize)
	if err != nil {
		fmt.Fprintln(stderr, "mkdeb build:", err)
		return 1
	}
	mtime, err := sourceDate(*root)
	if err != nil {
		fmt.Fprintln(stderr, "mkdeb build:", err)
		return 1
	}
	p, err := zertzboardPackage(*root, *arch, *version, *maintainer, bin, mtime)
	if err != nil {
		fmt.Fprintln(stderr, "mkdeb build:", err)
		return 1
	}
	path, err := writePackage(p, *out)
	if err != nil {
		fmt.Fprintln(stderr, "mkdeb build:", err)
		return 1
	}
	fmt.Fprintln(stdout, path)
	return 0
}

// writePackage writes DIR/NAME_VERSION_ARCH.deb through a temporary file,
// so that a failed build leaves no half package behind.
func writePackage(p *deb.Package, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	name := fmt.Sprintf("%s_%s_%s.deb", p.Control.Package, p.Control.Version, p.Control.Architecture)
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".mkdeb-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	path := filepath.Join(dir, name)
	return path, os.Rename(tmp.Name(), path)
}

func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: over %d bytes", path, limit)
	}
	return b, nil
}

// gitVersion is the Debian version of the checkout in dir.
func gitVersion(dir string) (string, error) {
	describe, err := git(dir, "describe", "--tags", "--always", "--dirty")
	if err != nil {
		return "", err
	}
	commit, err := commitTime(dir)
	if err != nil {
		return "", err
	}
	return deb.VersionFromGit(describe, commit, time.Now())
}

func commitTime(dir string) (time.Time, error) {
	s, err := git(dir, "log", "-1", "--format=%ct")
	if err != nil {
		return time.Time{}, err
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("git log: commit time %q: %w", s, err)
	}
	return time.Unix(sec, 0).UTC(), nil
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// sourceDate is SOURCE_DATE_EPOCH if set, else the commit's time.
func sourceDate(root string) (time.Time, error) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil || sec < 0 {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q: want seconds since 1970", s)
		}
		return time.Unix(sec, 0).UTC(), nil
	}
	t, err := commitTime(root)
	if err != nil {
		return time.Time{}, fmt.Errorf("%v (set SOURCE_DATE_EPOCH outside a git checkout)", err)
	}
	return t, nil
}
