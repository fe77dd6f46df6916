package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"encoding/binary"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zertzboard/zertzboard/internal/deb"
	"github.com/zertzboard/zertzboard/internal/ini"
)

const root = "../.." // the repository

var mtime = time.Date(2026, 11, 22, 22, 30, 14, 0, time.UTC)

// fakeBinary is an ELF header for arch followed by padding: enough for
// CheckELF, not a program.
func fakeBinary(class elf.Class, machine elf.Machine) []byte {
	b := make([]byte, 4096)
	copy(b, elf.ELFMAG)
	b[elf.EI_CLASS] = byte(class)
	b[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	b[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	binary.LittleEndian.PutUint16(b[16:], uint16(elf.ET_EXEC))
	binary.LittleEndian.PutUint16(b[18:], uint16(machine))
	binary.LittleEndian.PutUint32(b[20:], uint32(elf.EV_CURRENT))
	return b
}

func buildPackage(t *testing.T, arch string, bin []byte) (*deb.Archive, []byte) {
	t.Helper()
	p, err := zertzboardPackage(root, arch, "0.0~git20261122.223014.0e75f5d", defaultMaintainer, bin, mtime)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	a, err := deb.Read(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return a, b.Bytes()
}

func entry(a *deb.Archive, path string) *deb.Entry {
	for i := range a.Data {
		if a.Data[i].Name == "."+path {
			return &a.Data[i]
		}
	}
	return nil
}

func TestPackageLayout(t *testing.T) {
	bin := fakeBinary(elf.ELFCLASS64, elf.EM_AARCH64)
	a, _ := buildPackage(t, "arm64", bin)
	for _, f := range []struct {
		path string
		mode int64
	}{
		{"/usr/bin/zertzboard", 0o755},
		{"/usr/lib/systemd/system/zertzboard.service", 0o644},
		{"/etc/zertzboard/zertzboard.conf", 0o640},
		{"/etc/zertzboard/wiring", 0o644},
		{"/usr/share/doc/zertzboard/README.Debian", 0o644},
		{"/usr/share/doc/zertzboard/README.md", 0o644},
		{"/usr/share/doc/zertzboard/examples/config.txt", 0o644},
		{"/usr/share/doc/zertzboard/copyright", 0o644},
		{"/usr/share/doc/zertzboard/changelog.gz", 0o644},
		{"/usr/share/man/man1/zertzboard.1.gz", 0o644},
		{"/usr/share/lintian/overrides/zertzboard", 0o644},
	} {
		e := entry(a, f.path)
		if e == nil {
			t.Errorf("%s missing", f.path)
			continue
		}
		if e.Mode != f.mode || e.Uname != "root" || e.Gname != "root" || e.UID != 0 || e.GID != 0 {
			t.Errorf("%s: mode %o %s:%s (%d:%d), want %o root:root", f.path, e.Mode, e.Uname, e.Gname, e.UID, e.GID, f.mode)
		}
	}
	if e := entry(a, "/usr/bin/zertzboard"); e == nil || !bytes.Equal(e.Data, bin) {
		t.Error("/usr/bin/zertzboard is not the binary given")
	}
	if conf, _ := a.ControlFile("conffiles"); string(conf) != "/etc/zertzboard/wiring\n/etc/zertzboard/zertzboard.conf\n" {
		t.Errorf("conffiles %q", conf)
	}
	for field, want := range map[string]string{"Package": "zertzboard", "Architecture": "arm64", "Depends": "adduser", "Section": "misc", "Priority": "optional"} {
		if got, _ := a.Field(field); got != want {
			t.Errorf("%s: %q, want %q", field, got, want)
		}
	}
	for _, name := range []string{"postinst", "prerm", "postrm"} {
		s, ok := a.ControlFile(name)
		if !ok {
			t.Errorf("no %s", name)
			continue
		}
		if out, err := exec.Command("sh", "-n", "-c", string(s)).CombinedOutput(); err != nil {
			t.Errorf("%s: sh -n: %v %s", name, err, out)
		}
	}
	// The changelog and man page are gzip'd as gzip -9n: no name, no time.
	for _, p := range []string{"/usr/share/doc/zertzboard/changelog.gz", "/usr/share/man/man1/zertzboard.1.gz"} {
		zr, err := gzip.NewReader(bytes.NewReader(entry(a, p).Data))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		text, _ := io.ReadAll(zr)
		if zr.Name != "" || !zr.ModTime.IsZero() || len(text) == 0 {
			t.Errorf("%s: gzip name %q time %v, %d bytes", p, zr.Name, zr.ModTime, len(text))
		}
		if strings.HasSuffix(p, "changelog.gz") && !strings.HasPrefix(string(text), "zertzboard (0.0~git20261122.223014.0e75f5d) unstable; urgency=medium\n") {
			t.Errorf("changelog:\n%s", text)
		}
	}
}

// The unit, the configuration and the package agree: the unit runs the
// packaged binary on the packaged configuration as the user postinst
// creates; the configuration's wiring is a packaged file, and its state
// lives in the unit's StateDirectory, which postinst creates.
func TestPackageIsConsistent(t *testing.T) {
	a, _ := buildPackage(t, "armhf", fakeBinary(elf.ELFCLASS32, elf.EM_ARM))
	unit := string(entry(a, "/usr/lib/systemd/system/zertzboard.service").Data)
	keys := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(unit))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok && !strings.HasPrefix(k, "#") {
			keys[k] = v
		}
	}
	execStart := strings.Fields(keys["ExecStart"])
	if len(execStart) < 4 || entry(a, execStart[0]) == nil || execStart[1] != "run" || execStart[2] != "--config" {
		t.Fatalf("unit ExecStart=%q: want a packaged binary and run --config FILE", keys["ExecStart"])
	}
	confPath := execStart[3]
	conf := entry(a, confPath)
	if conf == nil {
		t.Fatalf("the unit's configuration %s is not in the package", confPath)
	}
	if keys["User"] != "zertzboard" || keys["StateDirectory"] != "zertzboard" {
		t.Errorf("unit User=%q StateDirectory=%q", keys["User"], keys["StateDirectory"])
	}
	postinst, _ := a.ControlFile("postinst")
	for _, want := range []string{"USER=zertzboard", "STATE=/var/lib/zertzboard", "CONF=" + confPath, "for group in gpio spi i2c", "adduser --quiet --system --group"} {
		if !bytes.Contains(postinst, []byte(want)) {
			t.Errorf("postinst lacks %q", want)
		}
	}
	sections, err := ini.Parse(confPath, bytes.NewReader(conf.Data))
	if err != nil {
		t.Fatal(err)
	}
	get := func(section, key string) string {
		for _, s := range sections {
			if s.Name == section {
				if e := s.Get(key); e != nil {
					return e.Value
				}
			}
		}
		t.Errorf("%s: no [%s] %s", confPath, section, key)
		return ""
	}
	if w := get("hardware", "wiring"); entry(a, w) == nil {
		t.Errorf("[hardware] wiring = %s is not in the package", w)
	}
	for _, k := range [][2]string{{"hardware", "calibration"}, {"journal", "path"}, {"mqtt", "store"}} {
		if v := get(k[0], k[1]); !strings.HasPrefix(v, "/var/lib/zertzboard/") {
			t.Errorf("[%s] %s = %s: not in the state directory /var/lib/zertzboard", k[0], k[1], v)
		}
	}
}

// Every module linked into the binary is named in the copyright file.
func TestCopyrightNamesEveryModule(t *testing.T) {
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	copyright, err := os.ReadFile(filepath.Join(root, "packaging/copyright"))
	if err != nil {
		t.Fatal(err)
	}
	modules := 0
	inRequire := false
	for _, line := range strings.Split(string(gomod), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "require (":
			inRequire = true
			continue
		case line == ")":
			inRequire = false
			continue
		case strings.HasPrefix(line, "require "):
			line = strings.TrimPrefix(line, "require ")
		case !inRequire:
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		modules++
		if !bytes.Contains(copyright, []byte(f[0])) {
			t.Errorf("packaging/copyright does not name %s (go.mod): add its copyright and license", f[0])
		}
	}
	if modules == 0 {
		t.Fatal("no modules found in go.mod")
	}
}

func TestPackageRefusesWrongBinary(t *testing.T) {
	arm := fakeBinary(elf.ELFCLASS32, elf.EM_ARM)
	if _, err := zertzboardPackage(root, "arm64", "1.0", defaultMaintainer, arm, mtime); err == nil {
		t.Error("an armhf binary was packaged as arm64")
	}
	if _, err := zertzboardPackage(root, "arm64", "v1.0", defaultMaintainer, fakeBinary(elf.ELFCLASS64, elf.EM_AARCH64), mtime); err == nil {
		t.Error("version v1.0 accepted")
	}
}

func TestBuildCommandIsReproducible(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "zertzboard")
	if err := os.WriteFile(bin, fakeBinary(elf.ELFCLASS64, elf.EM_AARCH64), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1795220000")
	var outs [][]byte
	for _, out := range []string{filepath.Join(dir, "a"), filepath.Join(dir, "b")} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"build", "--arch", "arm64", "--binary", bin, "--version", "1.2.3", "--out", out, "--root", root}, &stdout, &stderr)
		want := filepath.Join(out, "zertzboard_1.2.3_arm64.deb")
		if code != 0 || strings.TrimSpace(stdout.String()) != want {
			t.Fatalf("mkdeb build: exit %d, stdout %q, stderr %q; want %s", code, stdout.String(), stderr.String(), want)
		}
		b, err := os.ReadFile(want)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, b)
		leftovers, _ := filepath.Glob(filepath.Join(out, ".mkdeb-*"))
		if len(leftovers) > 0 {
			t.Errorf("temporary files left: %v", leftovers)
		}
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("two builds of the same input differ")
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"build", "--arch", "armhf", "--binary", bin, "--version", "1.2.3", "--out", dir, "--root", root}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "not a armhf executable") {
		t.Errorf("arm64 binary as armhf: exit %d, stderr %q", code, stderr.String())
	}
	if code := run([]string{"build", "--arch", "arm64"}, &stdout, &stderr); code != 2 {
		t.Errorf("missing flags: exit %d", code)
	}
}

// dpkg-deb reads the real layout; packaging/check-deb.sh is what CI runs
// on the real packages.
func TestDpkgDebReadsPackage(t *testing.T) {
	dpkgDeb, err := exec.LookPath("dpkg-deb")
	if err != nil {
		t.Skip("dpkg-deb not installed (Debian's dpkg package): checked with internal/deb's reader only")
	}
	_, raw := buildPackage(t, "arm64", fakeBinary(elf.ELFCLASS64, elf.EM_AARCH64))
	file := filepath.Join(t.TempDir(), "zertzboard_0.0~git20261122.223014.0e75f5d_arm64.deb")
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(dpkgDeb, "-W", "--showformat=${Package} ${Version} ${Architecture} ${Depends}", file).CombinedOutput()
	if err != nil || string(out) != "zertzboard 0.0~git20261122.223014.0e75f5d arm64 adduser" {
		t.Errorf("dpkg-deb -W: %q, %v", out, err)
	}
	out, err = exec.Command(dpkgDeb, "--contents", file).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "-rw-r----- root/root") || !strings.Contains(string(out), "./usr/lib/systemd/system/zertzboard.service") {
		t.Errorf("dpkg-deb --contents: %v\n%s", err, out)
	}
	out, err = exec.Command(dpkgDeb, "--info", file, "conffiles").CombinedOutput()
	if err != nil || string(out) != "/etc/zertzboard/wiring\n/etc/zertzboard/zertzboard.conf\n" {
		t.Errorf("dpkg-deb --info conffiles: %q, %v", out, err)
	}
}

// packaging/check-deb.sh passes a good package and names what is wrong
// with a bad one. (It runs the binary and lintian too; not here: the
// binary is fake, and CI runs the script on the real packages.)
func TestCheckDebScript(t *testing.T) {
	if _, err := exec.LookPath("dpkg-deb"); err != nil {
		t.Skip("dpkg-deb not installed (Debian's dpkg package): packaging/check-deb.sh needs it")
	}
	const version = "0.0~git20261122.223014.0e75f5d"
	check := func(name string, change func(p *deb.Package)) (string, error) {
		p, err := zertzboardPackage(root, "arm64", version, defaultMaintainer, fakeBinary(elf.ELFCLASS64, elf.EM_AARCH64), mtime)
		if err != nil {
			t.Fatal(err)
		}
		if change != nil {
			change(p)
		}
		dir := filepath.Join(t.TempDir(), "dist")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, name)
		var b bytes.Buffer
		if err := p.Write(&b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", filepath.Join(root, "packaging/check-deb.sh"), file)
		cmd.Env = append(os.Environ(), "CHECK_DEB_RUN=0", "CHECK_DEB_LINTIAN=0")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	good := "zertzboard_" + version + "_arm64.deb"
	if out, err := check(good, nil); err != nil || !strings.Contains(out, "check-deb: 1 package(s) OK") {
		t.Fatalf("a good package fails: %v\n%s", err, out)
	}
	setFile := func(path string, f func(*deb.File)) func(p *deb.Package) {
		return func(p *deb.Package) {
			for i := range p.Files {
				if p.Files[i].Path == path {
					f(&p.Files[i])
				}
			}
		}
	}
	for _, c := range []struct {
		name, file string
		change     func(p *deb.Package)
		want       string
	}{
		{"armhf binary in the arm64 package", good, setFile("/usr/bin/zertzboard", func(f *deb.File) { f.Data = fakeBinary(elf.ELFCLASS32, elf.EM_ARM) }), "ELF class/data/machine '1 1 40', want '2 1 183'"},
		{"world-readable configuration", good, setFile("/etc/zertzboard/zertzboard.conf", func(f *deb.File) { f.Mode = 0o644 }), "missing: -rw-r----- root/root ./etc/zertzboard/zertzboard.conf"},
		{"wiring not a conffile", good, setFile("/etc/zertzboard/wiring", func(f *deb.File) { f.Conffile = false }), "conffiles:"},
		{"unit runs another binary", good, setFile("/usr/lib/systemd/system/zertzboard.service", func(f *deb.File) {
			f.Data = bytes.ReplaceAll(f.Data, []byte("ExecStart=/usr/bin/zertzboard"), []byte("ExecStart=/usr/local/bin/zertzboard"))
		}), "unit's ExecStart"},
		{"postinst enables the service", good, func(p *deb.Package) {
			p.Scripts["postinst"] = append(p.Scripts["postinst"], []byte("systemctl enable --now zertzboard\n")...)
		}, "postinst starts or enables the service"},
		{"misnamed file", "zertzboard_1.0_arm64.deb", nil, "file name, want zertzboard_" + version + "_arm64.deb"},
	} {
		out, err := check(c.file, c.change)
		if err == nil || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %v, want a failure naming %q:\n%s", c.name, err, c.want, out)
		}
	}
}

// "mkdeb version" on a real repository: before a tag, on it, after it,
// and with local changes.
func TestGitVersion(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	env := append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	gitRun := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	commit := func(content, date string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		gitRun("add", "f")
		cmd := exec.Command("git", "commit", "-q", "-m", content)
		cmd.Dir, cmd.Env = dir, append(env, "GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git commit: %v\n%s", err, out)
		}
		return gitRun("rev-parse", "--short", "HEAD")
	}
	version := func() string {
		t.Helper()
		v, err := gitVersion(dir)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	gitRun("init", "-q")
	h1 := commit("one", "2026-11-22T22:30:14Z")
	if got, want := version(), "0.0~git20261122.223014."+h1; got != want {
		t.Errorf("before a tag: %q, want %q", got, want)
	}
	gitRun("tag", "v0.1.0")
	if got := version(); got != "0.1.0" {
		t.Errorf("on v0.1.0: %q", got)
	}
	h2 := commit("two", "2026-11-23T08:00:00Z")
	if got, want := version(), "0.1.0+git20261123.080000."+h2; got != want {
		t.Errorf("after v0.1.0: %q, want %q", got, want)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := version(); !strings.HasPrefix(got, "0.1.0+git20261123.080000."+h2+"+dirty") {
		t.Errorf("with local changes: %q", got)
	}
}
