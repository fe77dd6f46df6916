package open

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeviceErrors: a missing node names the config.txt line; a node this
// user may not open names the device, the group and the udev rule, and is
// not reported as "not found".
func TestDeviceErrors(t *testing.T) {
	dir := t.TempDir()
	oldDir, oldOpen := devDir, openRW
	defer func() { devDir, openRW = oldDir, oldOpen }()
	devDir = dir
	b := hostBuses{}

	_, err := b.SPI("SPI1.0")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "dtoverlay=spi1-1cs") || !strings.Contains(err.Error(), filepath.Join(dir, "spidev1.0")) {
		t.Errorf("missing node: %v; want not found with dtoverlay=spi1-1cs and the path", err)
	}
	_, err = b.SPI("SPI0.0")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "dtparam=spi=on") {
		t.Errorf("missing node: %v; want not found with dtparam=spi=on", err)
	}

	node := filepath.Join(dir, "spidev1.0")
	if err := os.WriteFile(node, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	openRW = func(path string) (*os.File, error) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrPermission}
	}
	_, err = b.SPI("SPI1.0")
	if err == nil {
		t.Fatal("unopenable node: want an error")
	}
	msg := err.Error()
	if !errors.Is(err, ErrPermission) || errors.Is(err, ErrNotFound) {
		t.Errorf("unopenable node: %v; want ErrPermission, not ErrNotFound", err)
	}
	for _, want := range []string{node, "group", "usermod -aG", `SUBSYSTEM=="spidev"`, `GROUP="spi"`, "udevadm trigger"} {
		if !strings.Contains(msg, want) {
			t.Errorf("unopenable node: %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "Init()") || strings.Contains(msg, "--sim") {
		t.Errorf("unopenable node: %q misleads", msg)
	}
}
