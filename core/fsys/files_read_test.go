package fsys

import (
	"errors"
	"io"
	"os"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentkit/charter/core/errcode"
)

// On a file system without fstat (MemMapFs in tests) the same rules hold:
// Stat stands in, and the cap holds for every read of an open file.
func TestReadFileOnMemFs(t *testing.T) {
	mem := afero.NewMemMapFs()
	s := &Files{Fs: mem}
	limit := KindSettings.Max()
	afero.WriteFile(mem, "/big.yaml", make([]byte, limit+1), 0o644)
	afero.WriteFile(mem, "/ok.yaml", []byte("rules: {}\n"), 0o644)
	mem.MkdirAll("/dir", 0o755)

	if _, err := s.ReadFile("/big.yaml", KindSettings); codeOf(err) != errcode.TooLarge {
		t.Errorf("big: %v", err)
	}
	if _, err := s.ReadFile("/dir", KindSettings); codeOf(err) != errcode.IsDirectory {
		t.Errorf("dir: %v", err)
	}
	if data, err := s.ReadOptional("/none", KindSettings); data != nil || err != nil {
		t.Errorf("missing: %q %v", data, err)
	}
	if data, err := s.ReadFile("/ok.yaml", KindSettings); err != nil || string(data) != "rules: {}\n" {
		t.Errorf("ok: %q %v", data, err)
	}

	// A file that grew past the cap after it was checked.
	f, err := mem.Open("/big.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := Capped(f, "/big.yaml", KindSettings)
	if _, err := io.ReadAll(c); codeOf(err) != errcode.TooLarge {
		t.Errorf("read past the cap: %v", err)
	}
	buf := make([]byte, 4)
	if n, err := c.ReadAt(buf, limit-1); n != 1 || codeOf(err) != errcode.TooLarge {
		t.Errorf("ReadAt across the cap: %d %v", n, err)
	}
	if _, err := c.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if n, err := io.ReadFull(c, make([]byte, limit)); n != int(limit) || err != nil {
		t.Errorf("up to the cap: %d %v", n, err)
	}
	var te *TooLargeError
	if _, err := c.Read(buf); !errors.As(err, &te) || te.Path != "/big.yaml" {
		t.Errorf("one byte more: %v", err)
	}
}

// A device on the real file system: refused by ReadFile and OpenFile.
func TestReadFileRefusesDevice(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	s := &Files{Fs: afero.NewOsFs()}
	for _, read := range []func() error{
		func() error { _, err := s.ReadFile("/dev/zero", KindInstructions); return err },
		func() error { _, err := s.OpenFile("/dev/zero", KindCoverage); return err },
		func() error { _, err := OpenFileFs(afero.NewOsFs(), "/dev/zero", KindCoverage); return err },
	} {
		if err := read(); codeOf(err) != errcode.NotRegularFile {
			t.Errorf("/dev/zero: %v", err)
		}
	}
}

// codeOf is the code of the first coded error in err's chain.
func codeOf(err error) string {
	var c interface{ Code() string }
	if errors.As(err, &c) {
		return c.Code()
	}
	return ""
}
