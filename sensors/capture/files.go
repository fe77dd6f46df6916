package capture

import (
	"errors"
	"io"
	"os"

	"github.com/zertzboard/zertzboard/hardware/wiring"
)

// Files is a Recorder writing to files it created.
type Files struct {
	*Recorder
	files []*os.File
}

// Create records frames of the mounted game board to a new frame log at
// framesPath and the raw counts to a new raw log at rawPath; an empty path
// writes no such file. Close closes the files (call Flush first).
func Create(m *wiring.Mount, framesPath, rawPath string) (*Files, error) {
	f := &Files{}
	w := []io.Writer{io.Discard, nil}
	for i, p := range []string{framesPath, rawPath} {
		if p == "" {
			continue
		}
		file, err := os.Create(p)
		if err != nil {
			f.Close()
			return nil, err
		}
		f.files = append(f.files, file)
		w[i] = file
	}
	f.Recorder = NewRecorder(m, w[0], w[1])
	return f, nil
}

// Close closes the files.
func (f *Files) Close() error {
	var errs []error
	for _, file := range f.files {
		errs = append(errs, file.Close())
	}
	f.files = nil
	return errors.Join(errs...)
}
