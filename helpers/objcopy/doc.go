// Package objcopy copies Go values deeply, down to a level limit. It is the
// Go form of the seed's ObjectHelper:
//
//	ObjectHelper::copy → Copy (DefaultMaxLevel is the reference's $maxLevel = 10)
//
// Levels count pointer hops. The root value is level 1; when the type
// parameter is a pointer (or an interface holding one), the value it points
// to is the root and the copy is a new pointer to a new value. With
// recursive=true a value reached through a pointer is copied while its level
// is at most maxLevel+1 and shared with the original beyond that;
// recursive=false behaves like maxLevel 0: the root is new, the values its
// pointers reach are shared. A negative maxLevel counts as 0.
//
// Maps and slices never count as a level and are always fresh, so a copy
// never shares a map or a slice's backing array with the original — except
// inside a value beyond the limit, which is shared whole. Interfaces are
// transparent: the value inside is handled by its own kind.
//
// Unexported fields are treated exactly like exported ones, so a copy never
// loses data. Cycles terminate and sharing is preserved: two paths to one
// pointer, map or slice in the original lead to one value in the copy, and
// a value is copied when its shallowest path lies within the limit. Slices
// are matched by their first element, so s and s[:n] stay one array in the
// copy; pointers into the middle of another value and sub-slices that start
// later get copies of their own. A slice is copied to its full capacity, and
// the elements between its length and capacity count as reachable at the
// slice's level, since reslicing reaches them. Map keys are kept as they are, since
// copying a pointer key would change which entry it finds.
//
// Functions, channels and unsafe pointers are shared. time.Time is copied as
// a plain value with its *time.Location shared, as the standard library
// intends, and reflect.Value is kept as is (its internals are not data).
//
// github.com/mitchellh/copystructure does not fit here: it skips unexported
// fields (losing data), has no level limit, and its customisation hooks are
// package-level mutable state. The walk is therefore a small reflect-based
// copier that writes unexported fields through unsafe views of memory it
// allocated itself.
package objcopy
