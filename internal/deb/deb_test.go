package deb

import (
	"archive/tar"
	"bytes"
	"crypto/md5"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

var epoch = time.Date(2026, 11, 22, 22, 30, 14, 0, time.UTC)

func testPackage() *Package {
	return &Package{
		Control: Control{
			Package: "zbtest", Version: "0.0~git20261122.223014.0e75f5d", Architecture: "arm64",
			Maintainer: "Test Maintainer <test@example.org>", Depends: "adduser",
			Section: "games", Priority: "optional", Homepage: "https://example.org/zbtest",
			Description: "test package\nA fake binary and a config.\n\nSecond paragraph.",
		},
		Files: []File{
			// Out of order on purpose: Write sorts.
			{Path: "/usr/share/doc/zbtest/copyright", Mode: 0o644, Data: []byte("copyright\n")},
			{Path: "/usr/bin/zbtest", Mode: 0o755, Data: bytes.Repeat([]byte{0x7f, 'E', 'L', 'F'}, 700)}, // 2800 bytes: 3 KiB
			{Path: "/etc/zbtest/zbtest.conf", Mode: 0o640, Data: []byte("[board]\n"), Conffile: true},
			{Path: "/etc/zbtest/wiring", Mode: 0o644, Data: []byte("odd"), Conffile: true},
		},
		Scripts: map[string][]byte{
			"postinst": []byte("#!/bin/sh\nset -e\nexit 0\n"),
			"prerm":    []byte("#!/bin/sh\nset -e\n"),
		},
		ModTime: epoch,
	}
}

func build(t *testing.T, p *Package) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestWriteReadBack(t *testing.T) {
	raw := build(t, testPackage())
	a, err := Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}

	// ar: the three members in deb(5)'s order, owned by 0:0, mode 100644.
	var names []string
	for _, m := range a.Members {
		names = append(names, m.Name)
		if m.UID != 0 || m.GID != 0 || m.Mode != 0o100644 || m.ModTime != epoch.Unix() {
			t.Errorf("ar member %s: uid %d gid %d mode %o mtime %d", m.Name, m.UID, m.GID, m.Mode, m.ModTime)
		}
	}
	if got := strings.Join(names, " "); got != "debian-binary control.tar.gz data.tar.gz" {
		t.Fatalf("ar members %q", got)
	}
	if string(a.Members[0].Data) != "2.0\n" {
		t.Errorf("debian-binary %q", a.Members[0].Data)
	}

	// control fields, in order.
	var fieldNames []string
	for _, f := range a.Fields {
		fieldNames = append(fieldNames, f.Name)
	}
	if got := strings.Join(fieldNames, " "); got != "Package Version Architecture Maintainer Installed-Size Depends Section Priority Homepage Description" {
		t.Errorf("control fields %q", got)
	}
	// 3 KiB binary + 1 + 1 + 1 KiB files + 7 directories (etc, etc/zbtest,
	// usr, usr/bin, usr/share, usr/share/doc, usr/share/doc/zbtest).
	for field, want := range map[string]string{
		"Package": "zbtest", "Version": "0.0~git20261122.223014.0e75f5d", "Architecture": "arm64",
		"Installed-Size": "13", "Depends": "adduser",
		"Description": "test package\nA fake binary and a config.\n.\nSecond paragraph.",
	} {
		if got, _ := a.Field(field); got != want {
			t.Errorf("%s: %q, want %q", field, got, want)
		}
	}

	// data: directories before their contents, root:root, the right modes.
	wantData := []struct {
		name string
		mode int64
		typ  byte
	}{
		{"./", 0o755, tar.TypeDir},
		{"./etc/", 0o755, tar.TypeDir},
		{"./etc/zbtest/", 0o755, tar.TypeDir},
		{"./etc/zbtest/wiring", 0o644, tar.TypeReg},
		{"./etc/zbtest/zbtest.conf", 0o640, tar.TypeReg},
		{"./usr/", 0o755, tar.TypeDir},
		{"./usr/bin/", 0o755, tar.TypeDir},
		{"./usr/bin/zbtest", 0o755, tar.TypeReg},
		{"./usr/share/", 0o755, tar.TypeDir},
		{"./usr/share/doc/", 0o755, tar.TypeDir},
		{"./usr/share/doc/zbtest/", 0o755, tar.TypeDir},
		{"./usr/share/doc/zbtest/copyright", 0o644, tar.TypeReg},
	}
	if len(a.Data) != len(wantData) {
		t.Fatalf("data has %d entries, want %d: %+v", len(a.Data), len(wantData), a.Data)
	}
	for i, w := range wantData {
		e := a.Data[i]
		if e.Name != w.name || e.Mode != w.mode || e.Type != w.typ || e.UID != 0 || e.GID != 0 || e.Uname != "root" || e.Gname != "root" {
			t.Errorf("data entry %d: %s %o %c %d:%d %s:%s, want %s %o %c root:root", i, e.Name, e.Mode, e.Type, e.UID, e.GID, e.Uname, e.Gname, w.name, w.mode, w.typ)
		}
	}

	// md5sums covers every file except conffiles, with the right sums.
	sums, _ := a.ControlFile("md5sums")
	var want strings.Builder
	for _, e := range a.Data {
		if e.Type == tar.TypeReg && !strings.HasPrefix(e.Name, "./etc/") {
			fmt.Fprintf(&want, "%x  %s\n", md5.Sum(e.Data), strings.TrimPrefix(e.Name, "./"))
		}
	}
	if string(sums) != want.String() || !strings.Contains(string(sums), "usr/bin/zbtest") {
		t.Errorf("md5sums:\n%s\nwant:\n%s", sums, want.String())
	}
	if conf, _ := a.ControlFile("conffiles"); string(conf) != "/etc/zbtest/wiring\n/etc/zbtest/zbtest.conf\n" {
		t.Errorf("conffiles %q", conf)
	}
	// Maintainer scripts are executable; control files are not.
	for _, e := range a.Control {
		want := int64(0o644)
		switch strings.TrimPrefix(e.Name, "./") {
		case "", "postinst", "prerm":
			want = 0o755
		}
		if e.Mode != want || e.UID != 0 || e.GID != 0 {
			t.Errorf("control.tar %s: mode %o uid %d gid %d, want %o 0:0", e.Name, e.Mode, e.UID, e.GID, want)
		}
	}
	if _, ok := a.ControlFile("postinst"); !ok {
		t.Error("no postinst")
	}
}

func TestWriteIsReproducible(t *testing.T) {
	p := testPackage()
	first := build(t, p)
	p.Files[0], p.Files[3] = p.Files[3], p.Files[0]
	if second := build(t, p); !bytes.Equal(first, second) {
		t.Error("the same package, files listed in another order, built different bytes")
	}
	p.ModTime = epoch.Add(time.Second)
	if third := build(t, p); bytes.Equal(first, third) {
		t.Error("ModTime is not recorded")
	}
}

func TestWriteRejects(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(p *Package)
		want   string
	}{
		{"bad version", func(p *Package) { p.Control.Version = "v1.0" }, `version "v1.0"`},
		{"bad name", func(p *Package) { p.Control.Package = "ZB" }, `package name "ZB"`},
		{"maintainer without email", func(p *Package) { p.Control.Maintainer = "someone" }, `maintainer "someone"`},
		{"no synopsis", func(p *Package) { p.Control.Description = "\nbody" }, "synopsis"},
		{"relative path", func(p *Package) { p.Files[0].Path = "usr/bin/x" }, `"usr/bin/x"`},
		{"unclean path", func(p *Package) { p.Files[0].Path = "/usr/../etc/x" }, `"/usr/../etc/x"`},
		{"duplicate", func(p *Package) { p.Files[0].Path = "/usr/bin/zbtest" }, "/usr/bin/zbtest listed twice"},
		{"file over a directory", func(p *Package) { p.Files[0].Path = "/usr/bin" }, "/usr/bin is both"},
		{"conffile outside /etc", func(p *Package) { p.Files[0].Conffile = true }, "conffiles belong under /etc"},
		{"setuid", func(p *Package) { p.Files[1].Mode = 0o4755 | 1<<23 }, "mode"},
		{"script without #!", func(p *Package) { p.Scripts["postrm"] = []byte("rm -rf /") }, "postrm: the first line is not a #!"},
		{"unknown script", func(p *Package) { p.Scripts["config"] = []byte("#!/bin/sh\n") }, `"config"`},
	} {
		p := testPackage()
		c.change(p)
		var b bytes.Buffer
		err := p.Write(&b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestReadRejectsDamage(t *testing.T) {
	raw := build(t, testPackage())
	for _, c := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"not ar", []byte("PK\x03\x04"), "not an ar archive"},
		{"truncated", raw[:len(raw)-100], "past the end"},
		{"header damaged", append(append([]byte{}, raw[:8+58]...), append([]byte("xx"), raw[8+60:]...)...), "bad terminator"},
	} {
		if _, err := Read(bytes.NewReader(c.raw)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestValidVersion(t *testing.T) {
	for _, c := range []struct {
		v  string
		ok bool
	}{
		{"1.0", true}, {"0.0~git20261122.223014.0e75f5d", true}, {"1.2.0+git20261122.223014.abc+dirty20261123.011500", true},
		{"1:2.0-3", true}, {"2.0-1~bpo12+1", true}, {"1.0-rc1-2", true},
		{"", false}, {"v1.0", false}, {"1.0-", false}, {"1.0_1", false}, {"a:1.0", false}, {"1:", false},
		{"1.0 beta", false}, {"1:2:3", true}, {"1.0-a:b", false}, {"-1", false},
	} {
		err := ValidVersion(c.v)
		if (err == nil) != c.ok {
			t.Errorf("ValidVersion(%q) = %v, want ok=%v", c.v, err, c.ok)
		}
		// dpkg is the judge where it is installed.
		if path, lerr := exec.LookPath("dpkg"); lerr == nil {
			derr := exec.Command(path, "--validate-version", c.v).Run()
			if (derr == nil) != (err == nil) {
				t.Errorf("%q: dpkg --validate-version says ok=%v, ValidVersion says %v", c.v, derr == nil, err)
			}
		}
	}
}

func TestVersionFromGit(t *testing.T) {
	commit := time.Date(2026, 11, 22, 23, 30, 14, 0, time.FixedZone("CET", 3600)) // 22:30:14 UTC
	built := time.Date(2026, 11, 23, 1, 15, 0, 0, time.UTC)
	for _, c := range []struct{ describe, want string }{
		{"0e75f5d", "0.0~git20261122.223014.0e75f5d"},
		{"0e75f5d-dirty", "0.0~git20261122.223014.0e75f5d+dirty20261123.011500"},
		{"v1.2.0", "1.2.0"},
		{"v1.2.0-rc1", "1.2.0~rc1"},
		{"v1.2.0-3-g0e75f5d", "1.2.0+git20261122.223014.0e75f5d"},
		{"v1.2.0-rc1-3-g0e75f5d-dirty", "1.2.0~rc1+git20261122.223014.0e75f5d+dirty20261123.011500"},
		{"2.0\n", "2.0"},
	} {
		got, err := VersionFromGit(c.describe, commit, built)
		if err != nil || got != c.want {
			t.Errorf("VersionFromGit(%q) = %q, %v; want %q", c.describe, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "release-candidate", "nightly-3-g0e75f5d"} {
		if got, err := VersionFromGit(bad, commit, built); err == nil {
			t.Errorf("VersionFromGit(%q) = %q, want an error", bad, got)
		}
	}
}

// The mapped versions sort as the history does, by dpkg's own comparison.
func TestVersionFromGitOrder(t *testing.T) {
	dpkg, err := exec.LookPath("dpkg")
	if err != nil {
		t.Skip("dpkg not installed: cannot compare versions with dpkg --compare-versions")
	}
	c1 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	c2 := c1.Add(2 * time.Hour)
	c3 := c1.Add(48 * time.Hour)
	v := func(describe string, commit time.Time) string {
		s, err := VersionFromGit(describe, commit, c3.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	order := []string{
		v("ffff000", c1),           // untagged, morning
		v("0000aaa", c2),           // untagged, later the same day, smaller hash
		v("0000aaa-dirty", c2),     // the same with local changes
		v("v0.1.0-rc1", c3),        // first release candidate
		v("v0.1.0", c3),            // the release
		v("v0.1.0-1-g1111111", c3), // a commit after it
		v("v0.2.0", c3),
	}
	for i := 1; i < len(order); i++ {
		if out, err := exec.Command(dpkg, "--compare-versions", order[i-1], "lt", order[i]).CombinedOutput(); err != nil {
			t.Errorf("dpkg does not sort %s before %s: %v %s", order[i-1], order[i], err, out)
		}
	}
}

// fakeELF is an ELF header for class and machine, enough for debug/elf.
func fakeELF(class elf.Class, machine elf.Machine) []byte {
	b := make([]byte, 64)
	copy(b, elf.ELFMAG)
	b[elf.EI_CLASS] = byte(class)
	b[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	b[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	binary.LittleEndian.PutUint16(b[16:], uint16(elf.ET_EXEC))
	binary.LittleEndian.PutUint16(b[18:], uint16(machine))
	binary.LittleEndian.PutUint32(b[20:], uint32(elf.EV_CURRENT))
	return b
}

func TestCheckELF(t *testing.T) {
	arm64 := fakeELF(elf.ELFCLASS64, elf.EM_AARCH64)
	arm := fakeELF(elf.ELFCLASS32, elf.EM_ARM)
	if err := CheckELF(arm64, "arm64"); err != nil {
		t.Error(err)
	}
	if err := CheckELF(arm, "armhf"); err != nil {
		t.Error(err)
	}
	if err := CheckELF(arm64, "armhf"); err == nil {
		t.Error("an arm64 binary passed as armhf")
	}
	if err := CheckELF(arm, "arm64"); err == nil {
		t.Error("an arm binary passed as arm64")
	}
	if err := CheckELF([]byte("#!/bin/sh\n"), "arm64"); err == nil || !strings.Contains(err.Error(), "not ELF") {
		t.Errorf("a script: %v", err)
	}
	if err := CheckELF(arm64, "mips"); err == nil || !strings.Contains(err.Error(), `"mips"`) {
		t.Errorf("unknown arch: %v", err)
	}
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" {
		self, err := os.ReadFile(os.Args[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckELF(self, "amd64"); err != nil {
			t.Errorf("the test binary itself: %v", err)
		}
	}
}

// dpkg-deb, where installed, reads the package as this package does.
func TestDpkgDebAccepts(t *testing.T) {
	dpkgDeb, err := exec.LookPath("dpkg-deb")
	if err != nil {
		t.Skip("dpkg-deb not installed (Debian's dpkg package): checked with the package's own reader only")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "zbtest.deb")
	if err := os.WriteFile(file, build(t, testPackage()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(dpkgDeb, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("dpkg-deb %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if strings.Contains(string(out), "warning") {
			t.Errorf("dpkg-deb %s warns:\n%s", strings.Join(args, " "), out)
		}
		return string(out)
	}
	info := run("--info", file)
	for _, want := range []string{" Package: zbtest", " Version: 0.0~git20261122.223014.0e75f5d", " Architecture: arm64", " Installed-Size: 13", "postinst", "\n  .\n  Second paragraph."} {
		if !strings.Contains(info, want) {
			t.Errorf("dpkg-deb --info lacks %q:\n%s", want, info)
		}
	}
	contents := run("--contents", file)
	for _, want := range []string{"-rwxr-xr-x root/root      2800 2026-11-22 22:30 ./usr/bin/zbtest", "-rw-r----- root/root         8 2026-11-22 22:30 ./etc/zbtest/zbtest.conf", "drwxr-xr-x root/root         0 2026-11-22 22:30 ./etc/zbtest/"} {
		if !strings.Contains(contents, want) {
			t.Errorf("dpkg-deb --contents lacks %q:\n%s", want, contents)
		}
	}
	if got := run("-W", "--showformat=${Package} ${Version} ${Architecture} ${Installed-Size}\n", file); got != "zbtest 0.0~git20261122.223014.0e75f5d arm64 13\n" {
		t.Errorf("dpkg-deb -W: %q", got)
	}
	// Extract it, as dpkg would, and compare a file.
	root := filepath.Join(dir, "root")
	run("--extract", file, root)
	if b, err := os.ReadFile(filepath.Join(root, "etc/zbtest/wiring")); err != nil || string(b) != "odd" {
		t.Errorf("extracted wiring: %q, %v", b, err)
	}
}
