package classify

import "os"

// WriteFile writes the calibration to path (the file Load reads),
// replacing what was there.
func (c *Calibration) WriteFile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := c.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
