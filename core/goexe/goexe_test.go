package goexe

import (
	"bytes"
	"debug/buildinfo"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

const charter = "github.com/agentkit/charter"

// builds compiles a tiny main package of module mod for each target and
// returns the executables' bytes by target.
func builds(t *testing.T, mod string, targets ...[2]string) map[[2]string][]byte {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module "+mod+"\n\ngo 1.22\n")
	write(t, filepath.Join(dir, "main.go"), "package main\n\nfunc main() { println(\"hello\") }\n")
	out := map[[2]string][]byte{}
	for _, tg := range targets {
		exe := filepath.Join(dir, tg[0]+"-"+tg[1])
		cmd := exec.Command("go", "build", "-trimpath", "-o", exe, ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOOS="+tg[0], "GOARCH="+tg[1], "CGO_ENABLED=0", "GOFLAGS=", "GOWORK=off")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build for %s/%s: %v\n%s", tg[0], tg[1], err, b)
		}
		b, err := os.ReadFile(exe)
		if err != nil {
			t.Fatal(err)
		}
		out[tg] = b
	}
	return out
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// agrees requires MainModule to read b as debug/buildinfo does wherever
// that reads it. MainModule may still read a file debug/buildinfo refuses
// as malformed further on (cut short, say): only the headers on the way
// to the build information count here.
func agrees(t *testing.T, name string, b []byte) string {
	t.Helper()
	got, err := MainModule(bytes.NewReader(b))
	bi, berr := buildinfo.Read(bytes.NewReader(b))
	switch {
	case berr == nil && err != nil:
		t.Errorf("%s: %v where debug/buildinfo reads %q", name, err, bi.Main.Path)
	case berr == nil && got != bi.Main.Path:
		t.Errorf("%s: read %q, debug/buildinfo %q", name, got, bi.Main.Path)
	}
	return got
}

// Every format charter is released for, 32 and 64 bits, both byte
// orders: the main module as debug/buildinfo reads it.
func TestMainModuleAsBuildinfo(t *testing.T) {
	targets := [][2]string{{"linux", "amd64"}, {"linux", "386"}, {"linux", "ppc64"}, {"darwin", "arm64"}, {"windows", "amd64"}, {"windows", "386"}}
	for _, mod := range []string{charter, "example.com/other"} {
		for tg, b := range builds(t, mod, targets...) {
			if got := agrees(t, tg[0]+"/"+tg[1], b); got != mod {
				t.Errorf("%s/%s of %s: read %q", tg[0], tg[1], mod, got)
			}
		}
	}
}

// The less common ways to the data: an ELF file without section headers
// (the data segment), a universal Mach-O file (its first architecture),
// and every truncation of a real executable.
func TestMainModuleOtherShapes(t *testing.T) {
	bs := builds(t, charter, [2]string{"linux", "amd64"}, [2]string{"darwin", "amd64"})
	elf := bytes.Clone(bs[[2]string{"linux", "amd64"}])
	binary.LittleEndian.PutUint64(elf[0x28:], 0) // e_shoff
	binary.LittleEndian.PutUint16(elf[0x3c:], 0) // e_shnum
	binary.LittleEndian.PutUint16(elf[0x3e:], 0) // e_shstrndx
	if _, err := buildinfo.Read(bytes.NewReader(elf)); err != nil {
		t.Fatalf("debug/buildinfo refuses the ELF file without sections: %v", err)
	}
	if got := agrees(t, "ELF without sections", elf); got != charter {
		t.Errorf("ELF without sections: read %q", got)
	}
	thin := bs[[2]string{"darwin", "amd64"}]
	fat := make([]byte, 4096, 4096+len(thin))
	binary.BigEndian.PutUint32(fat, 0xcafebabe)
	binary.BigEndian.PutUint32(fat[4:], 1)
	binary.BigEndian.PutUint32(fat[8:], 0x01000007) // x86_64
	binary.BigEndian.PutUint32(fat[16:], 4096)
	binary.BigEndian.PutUint32(fat[20:], uint32(len(thin)))
	binary.BigEndian.PutUint32(fat[24:], 12)
	fat = append(fat, thin...)
	if got := agrees(t, "universal Mach-O", fat); got != charter {
		t.Errorf("universal Mach-O: read %q", got)
	}
	for name, b := range bs {
		for _, n := range []int{0, 3, 16, 40, 52, 63, 64, 100, 1000, 4096, len(b) / 2, len(b) - 100, len(b) - 1} {
			agrees(t, name[0]+" cut", b[:n])
		}
	}
}

func TestMainModuleNotGo(t *testing.T) {
	for _, c := range []struct {
		name string
		b    []byte
		want error
	}{
		{"script", []byte("#!/bin/sh\nexec charter \"$@\"\n"), errUnknown},
		{"empty", nil, errUnknown},
		{"java class", append([]byte{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52}, make([]byte, 64)...), errUnknown},
	} {
		if _, err := MainModule(bytes.NewReader(c.b)); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	sh, err := os.ReadFile("/bin/sh")
	if err != nil {
		t.Skip("no /bin/sh")
	}
	if _, err := MainModule(bytes.NewReader(sh)); !errors.Is(err, errNotGo) {
		t.Errorf("/bin/sh: %v, want %v", err, errNotGo)
	}
}

// A hostile file that claims huge tables or strings is refused without
// reading or allocating what it claims.
func TestMainModuleHostileSizes(t *testing.T) {
	b := tinyELF(blob("go1.26", "path\tx\nmod\t"+charter+"\t(devel)\t\n"))
	if got := agrees(t, "tiny ELF", b); got != charter {
		t.Fatalf("tiny ELF: read %q", got)
	}
	huge := bytes.Clone(b)
	binary.LittleEndian.PutUint16(huge[0x38:], 0xffff) // e_phnum
	binary.LittleEndian.PutUint16(huge[0x36:], 0xffff) // e_phentsize
	if _, err := MainModule(bytes.NewReader(huge)); err == nil {
		t.Error("a program header table of 4 GB was read")
	}
	long := tinyELF(append(append([]byte{}, blob("go1.26", "")[:headerSize]...), 0xff, 0xff, 0xff, 0xff, 0x0f))
	if _, err := MainModule(bytes.NewReader(long)); !errors.Is(err, errNotGo) {
		t.Errorf("a 4 GB version string: %v, want %v", err, errNotGo)
	}
	if n := testing.AllocsPerRun(10, func() { MainModule(bytes.NewReader(long)) }); n > 10 {
		t.Errorf("%v allocations for a refused file", n)
	}
}

// blob is Go's build information with the strings inline (Go 1.18+).
func blob(vers, mod string) []byte {
	b := append([]byte{}, magic...)
	b = append(b, 8, 2)
	b = append(b, make([]byte, headerSize-len(b))...)
	if mod != "" {
		mod = "0123456789abcdef" + mod + "fedcba9876543210"
	}
	b = binary.AppendUvarint(b, uint64(len(vers)))
	b = append(b, vers...)
	b = binary.AppendUvarint(b, uint64(len(mod)))
	return append(b, mod...)
}

// tinyELF is a 64-bit little-endian ELF file whose one data segment
// holds data at offset 128.
func tinyELF(data []byte) []byte {
	b := make([]byte, 128, 128+len(data))
	copy(b, "\x7fELF\x02\x01\x01")
	binary.LittleEndian.PutUint16(b[0x10:], 2)    // ET_EXEC
	binary.LittleEndian.PutUint16(b[0x12:], 0x3e) // x86-64
	binary.LittleEndian.PutUint32(b[0x14:], 1)
	binary.LittleEndian.PutUint64(b[0x20:], 64) // e_phoff
	binary.LittleEndian.PutUint16(b[0x34:], 64) // e_ehsize
	binary.LittleEndian.PutUint16(b[0x36:], 56) // e_phentsize
	binary.LittleEndian.PutUint16(b[0x38:], 1)  // e_phnum
	p := b[64:]
	binary.LittleEndian.PutUint32(p, 1)     // PT_LOAD
	binary.LittleEndian.PutUint32(p[4:], 6) // PF_R|PF_W
	binary.LittleEndian.PutUint64(p[8:], 128)
	binary.LittleEndian.PutUint64(p[16:], 0x10000)
	binary.LittleEndian.PutUint64(p[24:], 0x10000)
	binary.LittleEndian.PutUint64(p[32:], uint64(len(data)))
	binary.LittleEndian.PutUint64(p[40:], uint64(len(data)))
	binary.LittleEndian.PutUint64(p[48:], 16)
	return append(b, data...)
}

func FuzzMainModule(f *testing.F) {
	f.Add(tinyELF(blob("go1.26", "path\tx\nmod\t"+charter+"\t(devel)\t\n")))
	f.Add(tinyELF(blob("go1.26", "")))
	f.Add([]byte("MZ"))
	f.Add([]byte{0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 72, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		agrees(t, "input", b)
	})
}
