package env

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/agentkit/charter/helpers/internal/numlit"
)

// Env reads variables through a lookup function. It holds no other state,
// so it is safe for concurrent use whenever the lookup is.
type Env struct {
	lookup func(string) (string, bool)
}

// New returns an Env that reads variables through lookup, which reports a
// variable's value and whether it is set. A nil lookup reads the process
// environment.
func New(lookup func(string) (string, bool)) *Env {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	return &Env{lookup: lookup}
}

// process reads the real environment; built per call so the package keeps
// no mutable state.
func process() *Env { return &Env{lookup: os.LookupEnv} }

// Get returns the variable's raw value when it is set (an empty value counts
// as set), else def.
func Get(key string, def any) any { return process().Get(key, def) }

// Has reports whether the variable is set, empty or not.
func Has(key string) bool { return process().Has(key) }

// String returns the variable (or def) as a string; see Env.String.
func String(key string, def any, forceCast bool) (*string, error) {
	return process().String(key, def, forceCast)
}

// Integer returns the variable (or def) as an int64; see Env.Integer.
func Integer(key string, def any, forceCast bool) (*int64, error) {
	return process().Integer(key, def, forceCast)
}

// Boolean returns the variable (or def) as a bool; see Env.Boolean.
func Boolean(key string, def any, forceCast bool) (*bool, error) {
	return process().Boolean(key, def, forceCast)
}

// Float returns the variable (or def) as a float64; see Env.Float.
func Float(key string, def any, forceCast bool) (*float64, error) {
	return process().Float(key, def, forceCast)
}

// Array returns the variable split on sep; see Env.Array.
func Array(key string, def []string, sep string) []string {
	return process().Array(key, def, sep)
}

// Get returns the variable's raw value when it is set (an empty value counts
// as set), else def.
func (e *Env) Get(key string, def any) any {
	if v, ok := e.lookup(key); ok {
		return v
	}
	return def
}

// Has reports whether the variable is set, empty or not.
func (e *Env) Has(key string) bool {
	_, ok := e.lookup(key)
	return ok
}

// typed is what every typed getter shares: the value of key (or def), nil
// for nil, an error for a value with no scalar meaning or one conv refuses.
func typed[T any](e *Env, key string, def any, want string, conv func(rv reflect.Value) (T, bool)) (*T, error) {
	v := e.Get(key, def)
	if v == nil {
		return nil, nil
	}
	rv := reflect.ValueOf(v)
	if !numlit.IsScalar(rv.Kind()) {
		return nil, defaultErr(key, want, v)
	}
	x, ok := conv(rv)
	if !ok {
		return nil, wantErr(key, want, v)
	}
	return &x, nil
}

// String returns the value as a string: a string as is, and in lenient mode
// a bool as "true"/"false" and a number in its shortest form without an
// exponent (the form config.GetString uses). A nil value gives nil.
func (e *Env) String(key string, def any, forceCast bool) (*string, error) {
	return typed(e, key, def, "string", func(rv reflect.Value) (string, bool) {
		return numlit.String(rv), forceCast || rv.Kind() == reflect.String
	})
}

// Integer returns the value as an int64. Lenient: the longest decimal-literal
// prefix after leading whitespace, truncated toward zero and saturated
// ("12abc" is 12, "abc" 0, "1e400" math.MaxInt64); bool defaults are 1/0 and
// numeric ones truncate. Strict: the trimmed value must be wholly a base-10
// int64, and a default must be a Go integer in int64 range.
func (e *Env) Integer(key string, def any, forceCast bool) (*int64, error) {
	return typed(e, key, def, "integer", func(rv reflect.Value) (int64, bool) {
		switch k := rv.Kind(); {
		case forceCast:
			return numlit.Int(rv), true
		case k == reflect.String:
			// Base 10 keeps ParseInt from accepting prefixes and underscores.
			n, err := strconv.ParseInt(numlit.TrimSpace(rv.String()), 10, 64)
			return n, err == nil
		case numlit.IsInt(k) || numlit.IsUint(k) && rv.Uint() <= math.MaxInt64:
			return numlit.Int(rv), true
		}
		return 0, false
	})
}

// Float returns the value as a float64. Lenient: the longest decimal-literal
// prefix after leading whitespace as strconv.ParseFloat reads it ("abc" is
// 0, "1e400" +Inf); bool defaults are 1/0. Strict: the trimmed value must be
// wholly a finite decimal literal, and a default a Go integer or float.
func (e *Env) Float(key string, def any, forceCast bool) (*float64, error) {
	return typed(e, key, def, "float", func(rv reflect.Value) (float64, bool) {
		switch k := rv.Kind(); {
		case forceCast:
			return numlit.Float(rv), true
		case k == reflect.String:
			t := numlit.TrimSpace(rv.String())
			// A literal is valid ParseFloat syntax; err is ErrRange for ±Inf,
			// and underflow to 0 is not an error, matching strconv.
			f, err := strconv.ParseFloat(t, 64)
			return f, numlit.IsLiteral(t) && err == nil
		}
		return numlit.Float(rv), rv.Kind() != reflect.Bool
	})
}

// Boolean returns the value as a bool. Lenient: a numeric string (a decimal
// literal, surrounding whitespace allowed) is true when its value is not
// zero, so "0.0" is false (the reference says true); any other string is true
// only when it is "true" in any case, untrimmed. Numeric defaults are true
// when not zero. Strict: the trimmed value must be true/false/1/0 in any
// case, and a default must be a bool.
func (e *Env) Boolean(key string, def any, forceCast bool) (*bool, error) {
	return typed(e, key, def, "boolean", func(rv reflect.Value) (bool, bool) {
		switch k := rv.Kind(); {
		case k == reflect.Bool:
			return rv.Bool(), true
		case k == reflect.String && forceCast:
			return lenientBool(rv.String()), true
		case k == reflect.String:
			t := numlit.TrimSpace(rv.String())
			if strings.EqualFold(t, "true") || t == "1" {
				return true, true
			}
			return false, strings.EqualFold(t, "false") || t == "0"
		}
		return numlit.NonZero(rv), forceCast
	})
}

func lenientBool(s string) bool {
	t := numlit.TrimSpace(s)
	if lit, n := numlit.Scan(t); n > 0 && n == len(t) {
		return !lit.IsZero()
	}
	return strings.EqualFold(s, "true")
}

// Array returns def when the variable is not set. Otherwise the value is
// trimmed of " \t\n\r\x00\v" (PHP's trim set); an empty result is nil, not
// def. Without sep in the value (or with sep == "") it is a single item;
// else it is split on sep and each item trimmed, keeping empty items.
func (e *Env) Array(key string, def []string, sep string) []string {
	v, ok := e.lookup(key)
	if !ok {
		return def
	}
	const cutset = " \t\n\r\x00\v"
	v = strings.Trim(v, cutset)
	if v == "" {
		return nil
	}
	if sep == "" || !strings.Contains(v, sep) {
		return []string{v}
	}
	items := strings.Split(v, sep)
	for i, it := range items {
		items[i] = strings.Trim(it, cutset)
	}
	return items
}

// wantErr is the strict-mode error: it names the key, the wanted type and
// the value, quoting strings so "" and " 1" stay visible.
func wantErr(key, want string, v any) error {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.String {
		return fmt.Errorf("env: %s: want %s, got %q", key, want, rv.String())
	}
	return fmt.Errorf("env: %s: want %s, got %T(%v)", key, want, v, v)
}

// defaultErr rejects defaults with no scalar meaning (slices, maps, structs,
// pointers...), in either mode.
func defaultErr(key, want string, v any) error {
	return fmt.Errorf("env: %s: want %s, got default of type %T", key, want, v)
}
