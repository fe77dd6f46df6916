// Package deb writes and reads Debian binary packages (.deb) with the
// standard library only.
//
// A .deb (deb(5)) is an ar archive of three members, in this order:
// "debian-binary" holding "2.0\n"; control.tar.gz with the control file,
// md5sums, conffiles and maintainer scripts; data.tar.gz with the files,
// all owned by root:root. Write builds one reproducibly: every timestamp
// is Package.ModTime, entries are sorted, and gzip headers carry no name
// or time. Read takes one apart again, with size limits, so that tests
// and tools can check a package without dpkg.
//
// Layer: base. May import: base.
package deb

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Limits on what Write accepts and Read parses.
const (
	MaxFileSize    = 256 << 20 // one file in the package
	MaxPackageSize = 512 << 20 // a whole .deb, and all of its data
	MaxEntries     = 10000     // files and directories in one tar member
)

// Control is the package's control file (deb-control(5)). Installed-Size is
// computed by Write.
type Control struct {
	Package      string // e.g. "zertzboard"
	Version      string // a Debian version, see ValidVersion
	Architecture string // e.g. "arm64", "armhf"
	Maintainer   string // "Name <email>"
	Depends      string // optional, e.g. "adduser"
	Section      string // e.g. "games"
	Priority     string // e.g. "optional"
	Homepage     string // optional URL
	// Description is the synopsis on its first line, then the extended
	// description. Blank lines become " ." paragraph separators.
	Description string
}

// File is one regular file in the installed system.
type File struct {
	Path     string      // absolute, e.g. "/usr/bin/zertzboard"
	Mode     fs.FileMode // permission bits, e.g. 0755
	Data     []byte
	Conffile bool // listed in conffiles; must be under /etc
}

// Package is everything Write needs.
type Package struct {
	Control Control
	Files   []File
	// Scripts are maintainer scripts by name: preinst, postinst, prerm,
	// postrm. Each is installed with mode 0755 and must start with "#!".
	Scripts map[string][]byte
	// ModTime stamps every archive member and entry (SOURCE_DATE_EPOCH).
	ModTime time.Time
}

var (
	packageNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+$`)
	archRE        = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	scriptNames   = map[string]bool{"preinst": true, "postinst": true, "prerm": true, "postrm": true}
)

// ValidVersion reports whether v is a Debian version
// ([epoch:]upstream[-revision], Debian Policy 5.6.12): the epoch is
// digits; the upstream version starts with a digit and holds only
// letters, digits and . + ~, with - only when there is a revision and :
// only when there is an epoch; the revision holds letters, digits, . + ~.
func ValidVersion(v string) error {
	orig := v
	bad := func(why string) error { return fmt.Errorf("deb: version %q: %s", orig, why) }
	if v == "" {
		return bad("empty")
	}
	if len(v) > 256 {
		return bad("longer than 256 bytes")
	}
	hasEpoch := false
	if i := strings.IndexByte(v, ':'); i >= 0 {
		epoch := v[:i]
		if epoch == "" || strings.Trim(epoch, "0123456789") != "" {
			return bad("the epoch before ':' must be digits")
		}
		v, hasEpoch = v[i+1:], true
	}
	upstream := v
	if i := strings.LastIndexByte(v, '-'); i >= 0 {
		upstream = v[:i]
		rev := v[i+1:]
		if rev == "" {
			return bad("empty revision after the last '-'")
		}
		for _, c := range rev {
			if !isAlnum(c) && !strings.ContainsRune(".+~", c) {
				return bad(fmt.Sprintf("revision %q holds %q (only letters, digits and . + ~)", rev, c))
			}
		}
	}
	if upstream == "" || upstream[0] < '0' || upstream[0] > '9' {
		return bad("the upstream version must start with a digit")
	}
	allowed := ".+~"
	if upstream != v {
		allowed += "-"
	}
	if hasEpoch {
		allowed += ":"
	}
	for _, c := range upstream {
		if !isAlnum(c) && !strings.ContainsRune(allowed, c) {
			return bad(fmt.Sprintf("upstream version %q holds %q (only letters, digits and %s)", upstream, c, allowed))
		}
	}
	return nil
}

func isAlnum(c rune) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (c Control) validate() error {
	if !packageNameRE.MatchString(c.Package) {
		return fmt.Errorf("deb: package name %q: two or more of a-z 0-9 + . -, starting with a letter or digit", c.Package)
	}
	if err := ValidVersion(c.Version); err != nil {
		return err
	}
	if !archRE.MatchString(c.Architecture) {
		return fmt.Errorf("deb: architecture %q: want a Debian architecture such as arm64 or armhf", c.Architecture)
	}
	if !strings.Contains(c.Maintainer, "<") || !strings.HasSuffix(c.Maintainer, ">") || !strings.Contains(c.Maintainer, "@") {
		return fmt.Errorf("deb: maintainer %q: want \"Name <email>\"", c.Maintainer)
	}
	if strings.TrimSpace(firstLine(c.Description)) == "" {
		return errors.New("deb: description: the first line (the synopsis) is empty")
	}
	for name, v := range map[string]string{"Depends": c.Depends, "Section": c.Section, "Priority": c.Priority, "Homepage": c.Homepage, "Maintainer": c.Maintainer} {
		if strings.ContainsAny(v, "\n\r") {
			return fmt.Errorf("deb: %s %q: one line only", name, v)
		}
	}
	return nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// controlText renders the control file.
func (c Control) controlText(installedKiB int64) []byte {
	var b bytes.Buffer
	field := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	field("Package", c.Package)
	field("Version", c.Version)
	field("Architecture", c.Architecture)
	field("Maintainer", c.Maintainer)
	field("Installed-Size", fmt.Sprint(installedKiB))
	field("Depends", c.Depends)
	field("Section", c.Section)
	field("Priority", c.Priority)
	field("Homepage", c.Homepage)
	lines := strings.Split(strings.TrimRight(c.Description, "\n"), "\n")
	fmt.Fprintf(&b, "Description: %s\n", strings.TrimSpace(lines[0]))
	for _, l := range lines[1:] {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			l = "."
		}
		fmt.Fprintf(&b, " %s\n", l)
	}
	return b.Bytes()
}

// checkPath cleans and checks an absolute install path.
func checkPath(p string) error {
	if !strings.HasPrefix(p, "/") || path.Clean(p) != p || p == "/" {
		return fmt.Errorf("deb: file path %q: want a clean absolute path to a file", p)
	}
	for _, c := range p {
		if c < ' ' || c == 0x7f || c == '\\' {
			return fmt.Errorf("deb: file path %q: control character or backslash", p)
		}
	}
	return nil
}

// Write writes the package as a .deb to w.
func (p *Package) Write(w io.Writer) error {
	if err := p.Control.validate(); err != nil {
		return err
	}
	files := append([]File(nil), p.Files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	dirs, installed, err := checkFiles(files)
	if err != nil {
		return err
	}
	data, err := dataTar(files, dirs, p.ModTime)
	if err != nil {
		return err
	}
	control, err := p.controlTar(files, installed)
	if err != nil {
		return err
	}
	return writeAr(w, p.ModTime, control, data)
}

// checkFiles checks files (sorted by path) against the package's limits
// and returns the directories that hold them and the installed size in
// KiB, as dpkg-gencontrol counts it.
func checkFiles(files []File) (dirs map[string]bool, installed int64, err error) {
	dirs = map[string]bool{}
	var total int64
	for i, f := range files {
		if err := checkPath(f.Path); err != nil {
			return nil, 0, err
		}
		if i > 0 && files[i-1].Path == f.Path {
			return nil, 0, fmt.Errorf("deb: file %s listed twice", f.Path)
		}
		if f.Mode&^fs.ModePerm != 0 || f.Mode&0o400 == 0 {
			return nil, 0, fmt.Errorf("deb: file %s: mode %v: want plain permission bits readable by the owner", f.Path, f.Mode)
		}
		if len(f.Data) > MaxFileSize {
			return nil, 0, fmt.Errorf("deb: file %s: %d bytes, over the %d limit", f.Path, len(f.Data), MaxFileSize)
		}
		if f.Conffile && !strings.HasPrefix(f.Path, "/etc/") {
			return nil, 0, fmt.Errorf("deb: conffile %s: conffiles belong under /etc", f.Path)
		}
		total += int64(len(f.Data))
		installed += (int64(len(f.Data)) + 1023) / 1024
		for d := path.Dir(f.Path); d != "/"; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	if total > MaxPackageSize {
		return nil, 0, fmt.Errorf("deb: %d bytes of files, over the %d limit", total, MaxPackageSize)
	}
	for _, f := range files {
		if dirs[f.Path] {
			return nil, 0, fmt.Errorf("deb: %s is both a file and a directory", f.Path)
		}
	}
	installed += int64(len(dirs)) // dpkg-gencontrol counts a directory as 1 KiB
	if len(files)+len(dirs) > MaxEntries {
		return nil, 0, fmt.Errorf("deb: %d entries, over the %d limit", len(files)+len(dirs), MaxEntries)
	}
	return dirs, installed, nil
}

// dataTar is data.tar.gz: "./", the directories, the files, in sorted
// order, so a directory always comes before what it holds.
func dataTar(files []File, dirs map[string]bool, mod time.Time) ([]byte, error) {
	var entries []tarEntry
	entries = append(entries, tarEntry{name: "./", mode: 0o755, dir: true})
	for d := range dirs {
		entries = append(entries, tarEntry{name: "." + d + "/", mode: 0o755, dir: true})
	}
	for _, f := range files {
		entries = append(entries, tarEntry{name: "." + f.Path, mode: int64(f.Mode), data: f.Data})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	return tarGz(entries, mod)
}

// controlTar is control.tar.gz: control, md5sums, conffiles and the
// maintainer scripts.
func (p *Package) controlTar(files []File, installed int64) ([]byte, error) {
	var md5sums, conffiles bytes.Buffer
	for _, f := range files {
		if f.Conffile {
			// dpkg records conffiles' sums itself; dh_md5sums leaves
			// them out of md5sums too.
			fmt.Fprintf(&conffiles, "%s\n", f.Path)
			continue
		}
		fmt.Fprintf(&md5sums, "%x  %s\n", md5.Sum(f.Data), f.Path[1:])
	}
	ctl := []tarEntry{
		{name: "./", mode: 0o755, dir: true},
		{name: "./control", mode: 0o644, data: p.Control.controlText(installed)},
		{name: "./md5sums", mode: 0o644, data: md5sums.Bytes()},
	}
	if conffiles.Len() > 0 {
		ctl = append(ctl, tarEntry{name: "./conffiles", mode: 0o644, data: conffiles.Bytes()})
	}
	names := make([]string, 0, len(p.Scripts))
	for name := range p.Scripts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		s := p.Scripts[name]
		if !scriptNames[name] {
			return nil, fmt.Errorf("deb: maintainer script %q: want preinst, postinst, prerm or postrm", name)
		}
		if !bytes.HasPrefix(s, []byte("#!")) {
			return nil, fmt.Errorf("deb: maintainer script %s: the first line is not a #! interpreter line", name)
		}
		ctl = append(ctl, tarEntry{name: "./" + name, mode: 0o755, data: s})
	}
	return tarGz(ctl, p.ModTime)
}

// writeAr writes the ar archive that is the .deb: debian-binary, then
// control.tar.gz, then data.tar.gz.
func writeAr(w io.Writer, mod time.Time, control, data []byte) error {
	mtime := mod.Unix()
	if mtime < 0 {
		mtime = 0
	}
	if _, err := io.WriteString(w, arMagic); err != nil {
		return err
	}
	for _, m := range []struct {
		name string
		data []byte
	}{{"debian-binary", []byte("2.0\n")}, {"control.tar.gz", control}, {"data.tar.gz", data}} {
		if err := writeArMember(w, m.name, mtime, m.data); err != nil {
			return err
		}
	}
	return nil
}

type tarEntry struct {
	name string
	mode int64
	dir  bool
	data []byte
}

// tarGz writes entries owned by root:root, as dpkg-deb does (GNU format).
func tarGz(entries []tarEntry, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		h := &tar.Header{
			Name: e.name, Mode: e.mode, ModTime: mtime.Truncate(time.Second),
			Uname: "root", Gname: "root", Format: tar.FormatGNU,
		}
		if e.dir {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(e.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, fmt.Errorf("deb: tar %s: %w", e.name, err)
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, fmt.Errorf("deb: tar %s: %w", e.name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

const arMagic = "!<arch>\n"

// writeArMember writes one member of a common ar archive as dpkg-deb
// does: a 60-byte header (name, mtime, uid 0, gid 0, mode 100644, size,
// "`\n"), the data, and a newline pad to an even offset.
func writeArMember(w io.Writer, name string, mtime int64, data []byte) error {
	if len(name) > 15 {
		return fmt.Errorf("deb: ar member name %q longer than 15 bytes", name)
	}
	hdr := fmt.Sprintf("%-16s%-12d%-6d%-6d%-8s%-10d`\n", name, mtime, 0, 0, "100644", len(data))
	if len(hdr) != 60 {
		return fmt.Errorf("deb: ar header for %s is %d bytes", name, len(hdr))
	}
	if _, err := io.WriteString(w, hdr); err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	if len(data)%2 == 1 {
		_, err := io.WriteString(w, "\n")
		return err
	}
	return nil
}
