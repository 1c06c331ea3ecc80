package profile

import (
	"testing"

	"github.com/spf13/afero"
)

// Goose's folder is where Goose's own Paths::config_dir puts it:
// $GOOSE_PATH_ROOT/config when that is absolute, else etcetera's XDG
// strategy ($XDG_CONFIG_HOME/goose when absolute, else ~/.config/goose).
// config.yaml and .goosehints both lie in it.
func TestGooseDir(t *testing.T) {
	for _, c := range []struct {
		name, want string
		env        []string
	}{
		{"default", "/home/u/.config/goose", nil},
		{"path root", "/srv/g/config", []string{"GOOSE_PATH_ROOT=/srv/g"}},
		{"path root wins over XDG", "/srv/g/config", []string{"GOOSE_PATH_ROOT=/srv/g/", "XDG_CONFIG_HOME=/x"}},
		{"relative path root ignored", "/home/u/.config/goose", []string{"GOOSE_PATH_ROOT=g"}},
		{"blank path root ignored", "/x/goose", []string{"GOOSE_PATH_ROOT= ", "XDG_CONFIG_HOME=/x"}},
		{"XDG", "/x/cfg/goose", []string{"XDG_CONFIG_HOME=/x/cfg/"}},
		{"relative XDG ignored", "/home/u/.config/goose", []string{"XDG_CONFIG_HOME=cfg"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := testSystem(afero.NewMemMapFs(), "/w", append([]string{"HOME=/home/u"}, c.env...)...)
			goose, _ := s.AgentTable.Lookup("goose")
			if dir, err := AgentDir(s, goose); err != nil || dir != c.want {
				t.Errorf("AgentDir(goose) = %q, %v; want %q", dir, err, c.want)
			}
			if hints, err := UserPath(s, goose); err != nil || hints != c.want+"/.goosehints" {
				t.Errorf("UserPath(goose) = %q, %v; want .goosehints in %s", hints, err, c.want)
			}
		})
	}
}

// On Windows Goose takes etcetera's Windows strategy: the home's
// AppData\Roaming\Block\goose\config (no XDG, no %APPDATA%);
// GOOSE_PATH_ROOT still wins when absolute.
func TestGooseDirWindows(t *testing.T) {
	for _, c := range []struct {
		name, want string
		env        []string
	}{
		{"default", `C:\Users\u\AppData\Roaming\Block\goose\config`, nil},
		{"XDG ignored", `C:\Users\u\AppData\Roaming\Block\goose\config`, []string{`XDG_CONFIG_HOME=C:\x`}},
		{"APPDATA not read", `C:\Users\u\AppData\Roaming\Block\goose\config`, []string{`APPDATA=D:\roam`}},
		{"path root", `D:\g\config`, []string{`GOOSE_PATH_ROOT=D:\g`}},
		{"relative path root ignored", `C:\Users\u\AppData\Roaming\Block\goose\config`, []string{`GOOSE_PATH_ROOT=g`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := windowsSystem(afero.NewMemMapFs(), append([]string{`USERPROFILE=C:\Users\u`}, c.env...)...)
			goose, _ := s.AgentTable.Lookup("goose")
			if dir, err := AgentDir(s, goose); err != nil || dir != c.want {
				t.Errorf("AgentDir(goose) = %q, %v; want %q", dir, err, c.want)
			}
			claude, _ := s.AgentTable.Lookup("claude")
			if dir, err := AgentDir(s, claude); err != nil || dir != `C:\Users\u\.claude` {
				t.Errorf("AgentDir(claude) = %q, %v: only Goose moves", dir, err)
			}
		})
	}
}
