package server

import (
	"fmt"
	"testing"
)

// A path wraps after a separator, never after a hyphen inside a name,
// whatever the width: the hub's paths are full of hyphenated names
// (.agent-switch, settings.local.yaml's neighbours, profile names).
func TestBrowserPathWrapsAtSeparatorsOnly(t *testing.T) {
	p := newPage(t)
	e := newHubEnv(t, "")
	srv := e.start(t)
	p.open(srv.HubURL())
	path := "/home/some-user/.agent-switch/claude/work-profile-one/config/projects/shop-front-end/.claude/settings-local-copy.json"
	for _, width := range []int{120, 170, 230, 290, 350} {
		id := fmt.Sprintf("path-%d", width)
		js[bool](p, fmt.Sprintf(`import('./dom.js').then((m) => {
			const box = document.createElement('div');
			box.id = %q;
			box.style.width = '%dpx';
			box.append(m.pathCode(%q));
			document.body.append(box);
			return true;
		})`, id, width, path))
		p.pathBreaksAtSeparators("#" + id + " code")
	}
}
