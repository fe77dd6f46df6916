package deb

import (
	"bytes"
	"debug/elf"
	"fmt"
	"regexp"
	"strings"
	"time"
)

var (
	describeRE = regexp.MustCompile(`^(.+)-([0-9]+)-g([0-9a-f]{4,64})$`)
	hashRE     = regexp.MustCompile(`^[0-9a-f]{4,64}$`)
)

// VersionFromGit maps the output of "git describe --tags --always --dirty"
// to a Debian version that sorts in commit order:
//
//	0e75f5d             → 0.0~git20261122.223014.0e75f5d   (no tag yet; ~ sorts before any 0.0 release)
//	v1.2.0              → 1.2.0
//	v1.2.0-rc1          → 1.2.0~rc1                          (before 1.2.0)
//	v1.2.0-3-g0e75f5d   → 1.2.0+git20261122.223014.0e75f5d   (after 1.2.0)
//	…-dirty             → …+dirty20261123.011500             (built at "built", after its commit)
//
// commit is the commit's time ("git log -1 --format=%ct"); dates are UTC.
// A tag that maps to no valid version is an error naming it.
func VersionFromGit(describe string, commit, built time.Time) (string, error) {
	d := strings.TrimSpace(describe)
	dirty := strings.HasSuffix(d, "-dirty")
	d = strings.TrimSuffix(d, "-dirty")
	stamp := func(t time.Time) string { return t.UTC().Format("20060102.150405") }
	var v string
	switch m := describeRE.FindStringSubmatch(d); {
	case m != nil:
		tag, err := tagVersion(m[1])
		if err != nil {
			return "", err
		}
		v = tag + "+git" + stamp(commit) + "." + m[3]
	case hashRE.MatchString(d):
		v = "0.0~git" + stamp(commit) + "." + d
	case d == "":
		return "", fmt.Errorf("deb: empty git describe output")
	default:
		tag, err := tagVersion(d)
		if err != nil {
			return "", err
		}
		v = tag
	}
	if dirty {
		v += "+dirty" + stamp(built)
	}
	if err := ValidVersion(v); err != nil {
		return "", fmt.Errorf("deb: git describe %q: %w", describe, err)
	}
	return v, nil
}

// tagVersion maps a tag such as v1.2.0-rc1 to 1.2.0~rc1.
func tagVersion(tag string) (string, error) {
	v := tag
	if len(v) > 1 && (v[0] == 'v' || v[0] == 'V') && v[1] >= '0' && v[1] <= '9' {
		v = v[1:]
	}
	v = strings.ReplaceAll(v, "-", "~")
	v = strings.ReplaceAll(v, "_", ".")
	if err := ValidVersion(v); err != nil {
		return "", fmt.Errorf("deb: tag %q maps to no Debian version (%v); tag releases vN.N.N or set the version by hand", tag, err)
	}
	return v, nil
}

// Arch is a Debian architecture the packages are built for, with what the
// Go toolchain and the ELF header call it.
type Arch struct {
	Debian  string      // arm64, armhf, amd64
	GOARCH  string      // arm64, arm, amd64
	GOARM   string      // "6" for armhf: runs on every Pi with Raspberry Pi OS armhf
	Class   elf.Class   // ELFCLASS64 / ELFCLASS32
	Machine elf.Machine // EM_AARCH64, EM_ARM, EM_X86_64
}

// Arches are the architectures the builder knows. amd64 is there to try a
// package on a PC or in a container.
var Arches = map[string]Arch{
	"arm64": {"arm64", "arm64", "", elf.ELFCLASS64, elf.EM_AARCH64},
	"armhf": {"armhf", "arm", "6", elf.ELFCLASS32, elf.EM_ARM},
	"amd64": {"amd64", "amd64", "", elf.ELFCLASS64, elf.EM_X86_64},
}

// CheckELF reports whether bin is a little-endian Linux executable for
// the Debian architecture arch.
func CheckELF(bin []byte, arch string) error {
	a, ok := Arches[arch]
	if !ok {
		return fmt.Errorf("deb: unknown architecture %q (want arm64, armhf or amd64)", arch)
	}
	f, err := elf.NewFile(bytes.NewReader(bin))
	if err != nil {
		return fmt.Errorf("deb: binary for %s is not ELF: %w", arch, err)
	}
	if f.Class != a.Class || f.Machine != a.Machine || f.Data != elf.ELFDATA2LSB || f.Type != elf.ET_EXEC && f.Type != elf.ET_DYN {
		return fmt.Errorf("deb: binary is %v %v %v %v, not a %s executable (%v %v)", f.Class, f.Data, f.Machine, f.Type, arch, a.Class, a.Machine)
	}
	return nil
}
