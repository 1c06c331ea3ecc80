// Package lazy holds a package's value that is made on first use. A
// Value whose Make captures nothing is static data, where sync.OnceValue
// is a call at package initialisation: a package whose globals are all
// static has no initialisation to run, so a command that never uses it
// never touches its code (docs/performance.md, start-up).
package lazy

import (
	"regexp"
	"sync"
)

// Value is the result of Make, made once, on the first Get.
type Value[T any] struct {
	Make func() T
	once sync.Once
	v    T
}

// Get is the value, made by the first call.
func (l *Value[T]) Get() T {
	l.once.Do(func() { l.v = l.Make() })
	return l.v
}

// Regexp is a regular expression compiled on first use; Expr must
// compile.
type Regexp struct {
	Expr string
	once sync.Once
	re   *regexp.Regexp
}

// Get is the compiled expression.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.Expr) })
	return r.re
}
