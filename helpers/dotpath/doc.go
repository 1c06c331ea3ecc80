// Package dotpath splits and builds dot-notation paths ("cache.max_entries",
// "items.0.name"). It is the Go form of the seed's DotPathHelper:
//
//	DotPathHelper::segments          → Segments (and Lookup, its shared-slice form)
//	DotPathHelper::buildPrefix       → BuildPrefix
//	DotPathHelper::isWildcard        → IsWildcard
//	DotPathHelper::containsWildcard  → ContainsWildcard
//
// A path is split on every '.', with no trimming and no escaping; numeric
// segments stay strings and "*" is an ordinary segment to Segments. A path
// with a leading, trailing or doubled dot is an error.
//
// Parsed paths are kept in a bounded, concurrency-safe cache: the one piece
// of package-level state, allowed because it is invisible to callers (a
// cache hit and a miss give the same answer) and it is what keeps
// config.Get free of allocations.
package dotpath
