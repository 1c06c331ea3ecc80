package doctor

import (
	"fmt"
	"strings"
)

// peerTools: ruler or rulesync still has files in the project beside
// charter's (SPEC §16): its next run rewrites the files charter manages,
// and the agents read its generated text beside charter's projection.
func peerTools(r *run) []Check {
	if r.project == nil {
		return nil
	}
	var out []Check
	for _, tool := range []string{"ruler", "rulesync"} {
		name, label := "peer-"+tool, "Peer tool "+tool
		left, err := r.Session.PeerLeft(r.ctx, tool)
		switch {
		case err != nil:
			out = append(out, warn(name, label, "not checked: "+err.Error(), "fix what the message names, then run `charter doctor` again"))
		case left.Empty() && len(left.Kept) > 0:
			// Retired as far as it could be: its config still drives its
			// next run over the files charter manages.
			out = append(out, warn(name, label,
				fmt.Sprintf("%s's config stays beside charter: %s", tool, strings.Join(left.Kept, "; ")),
				"make what it names a charter source or move it out, then run `charter import --from "+tool+" --project --retire`"))
		case !left.Empty():
			files := make([]string, 0, len(left.Changes))
			for _, c := range left.Changes {
				rel := c.Path
				if w, ok := r.Sys.Paths.Within(r.project.Dir, c.Path); ok {
					rel = strings.Join(w, "/")
				}
				files = append(files, rel+" ("+c.What+")")
			}
			out = append(out, warn(name, label,
				fmt.Sprintf("%s and charter both manage this project: %s", tool, strings.Join(files, ", ")),
				"run `charter import --from "+tool+" --project --retire` (`charter uninstall --project` puts its files back)"))
		}
	}
	return out
}
