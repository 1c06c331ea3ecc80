package projection

import "github.com/agentkit/charter/core"

// StatCacheFile is the stat cache of the project level record under root.
func StatCacheFile(sys *core.System, root, record string) string {
	return statCachePath(sys, Request{Root: root, RecordPath: record})
}
