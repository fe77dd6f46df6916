package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/zertzboard/zertzboard/internal/deb"
)

const description = `referee for a physical ZERTZ board on a Raspberry Pi
zertzboard reads a Hall sensor under every ring socket of a ZERTZ board
through SPI ADCs, referees every move by the rules, lights the sockets,
shows the game on an SSD1306 screen, and broadcasts it over MQTT (with an
embedded broker) and a web scoreboard for players, arbiters and streams.

The package installs the service without enabling it: enable SPI and I2C,
calibrate, then "systemctl enable --now zertzboard"; see
/usr/share/doc/zertzboard/README.Debian.`

// source is one file of the package taken from the repository.
type source struct {
	from     string // relative to the repository root
	to       string // install path
	mode     fs.FileMode
	conffile bool
	gzip     bool // stored compressed, as to (which ends in .gz)
	optional bool
}

// sources is the package's layout. The unit, the configuration and the
// wiring are the ones firmware-config/ documents; the unit starts
// /usr/bin/zertzboard with /etc/zertzboard/zertzboard.conf.
var sources = []source{
	{from: "firmware-config/zertzboard.service", to: "/usr/lib/systemd/system/zertzboard.service", mode: 0o644},
	// Holds the broker's passwords: postinst makes it root:zertzboard.
	{from: "firmware-config/zertzboard.conf", to: "/etc/zertzboard/zertzboard.conf", mode: 0o640, conffile: true},
	{from: "firmware-config/reference-61.wiring", to: "/etc/zertzboard/wiring", mode: 0o644, conffile: true},
	{from: "packaging/README.Debian", to: "/usr/share/doc/zertzboard/README.Debian", mode: 0o644},
	{from: "firmware-config/README.md", to: "/usr/share/doc/zertzboard/README.md", mode: 0o644},
	{from: "firmware-config/config.txt", to: "/usr/share/doc/zertzboard/examples/config.txt", mode: 0o644},
	{from: "packaging/copyright", to: "/usr/share/doc/zertzboard/copyright", mode: 0o644},
	{from: "packaging/zertzboard.1", to: "/usr/share/man/man1/zertzboard.1.gz", mode: 0o644, gzip: true},
	{from: "packaging/lintian-overrides", to: "/usr/share/lintian/overrides/zertzboard", mode: 0o644, optional: true},
}

var scripts = []string{"postinst", "prerm", "postrm"}

// zertzboardPackage assembles the package for arch from the binary and the
// repository at root.
func zertzboardPackage(root, arch, version, maintainer string, bin []byte, mtime time.Time) (*deb.Package, error) {
	if err := deb.CheckELF(bin, arch); err != nil {
		return nil, err
	}
	if err := deb.ValidVersion(version); err != nil {
		return nil, err
	}
	p := &deb.Package{
		Control: deb.Control{
			Package:      "zertzboard",
			Version:      version,
			Architecture: arch,
			Maintainer:   maintainer,
			// adduser: postinst creates the user and groups. Nothing else:
			// the binary is static.
			Depends:     "adduser",
			Section:     "misc",
			Priority:    "optional",
			Homepage:    "https://github.com/zertzboard/zertzboard",
			Description: description,
		},
		Files:   []deb.File{{Path: "/usr/bin/zertzboard", Mode: 0o755, Data: bin}},
		Scripts: map[string][]byte{},
		ModTime: mtime,
	}
	for _, s := range sources {
		data, err := os.ReadFile(filepath.Join(root, s.from))
		if os.IsNotExist(err) && s.optional {
			continue
		}
		if err != nil {
			return nil, err
		}
		if s.gzip {
			if data, err = gzipBest(data); err != nil {
				return nil, err
			}
		}
		p.Files = append(p.Files, deb.File{Path: s.to, Mode: s.mode, Data: data, Conffile: s.conffile})
	}
	changelog, err := gzipBest(changelog(version, maintainer, mtime))
	if err != nil {
		return nil, err
	}
	p.Files = append(p.Files, deb.File{Path: "/usr/share/doc/zertzboard/changelog.gz", Mode: 0o644, Data: changelog})
	for _, name := range scripts {
		data, err := os.ReadFile(filepath.Join(root, "packaging", name))
		if err != nil {
			return nil, err
		}
		p.Scripts[name] = data
	}
	return p, nil
}

// changelog is a one-entry Debian changelog (deb-changelog(5)): the
// project's changes are its git history.
func changelog(version, maintainer string, t time.Time) []byte {
	return []byte(fmt.Sprintf(`zertzboard (%s) unstable; urgency=medium

  * Built from the zertzboard repository. The changes are its git history:
    https://github.com/zertzboard/zertzboard/commits

 -- %s  %s
`, version, maintainer, t.UTC().Format("Mon, 02 Jan 2006 15:04:05 -0700")))
}

// gzipBest compresses like "gzip -9n": no name, no time, best compression.
func gzipBest(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
