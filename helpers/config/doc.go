// Package config holds configuration values addressed by dot paths
// ("cache.max_entries", "servers.0.host"). It is the Go form of the seed's
// ConfigHelper singleton:
//
//	ConfigHelper::getInstance → Instance (ResetInstance drops it, for tests)
//	ConfigHelper::get         → Config.Get
//	ConfigHelper::getBoolean  → Config.GetBoolean
//	ConfigHelper::getInteger  → Config.GetInteger
//	ConfigHelper::getFloat    → Config.GetFloat
//	ConfigHelper::getString   → Config.GetString
//	ConfigHelper::getArray    → Config.GetArray
//	ConfigHelper::has         → Config.Has
//	ConfigHelper::set         → Config.Set
//	ConfigHelper::reset       → Config.Reset
//
// New, Initialize and All have no counterpart in the seed: they let callers
// build independent configurations and read them whole.
//
// A key that literally names a top-level entry wins, dots and all; otherwise
// the key is walked through maps and, by index, through slices. A stored nil
// counts as missing. The typed getters convert scalars and return the
// default for a missing key or for a map or slice value. Numeric strings
// follow package env's lenient rule: the longest decimal-literal prefix.
//
// A Config is safe for concurrent use. Values go in and come out as deep
// copies (package objcopy, to its default depth), so no caller can change a
// Config, or its reset snapshot, except through Set. Scalars are returned
// without copying, so reading one allocates nothing. The singleton behind
// Instance is the only package-level state.
package config
