package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/helpers/decmath"
	"github.com/agentkit/charter/helpers/words"
)

// ParseText reads a value as typed on the command line. Bools take
// true/false/yes/no/on/off/1/0 and enums their choices, both in any case;
// lists take a,b,c or a JSON array.
func ParseText(key, text string) (any, error) {
	k, err := known(key)
	if err != nil {
		return nil, err
	}
	s := strings.TrimSpace(text)
	if !utf8.ValidString(s) {
		return nil, k.problem("the value is not valid UTF-8 text")
	}
	if k.Kind == String || k.Kind == Duration {
		// a tab or line break at either end is refused, not trimmed away
		if err := k.checkText(text); err != nil {
			return nil, err
		}
	}
	var v any
	switch k.Kind {
	case Bool:
		b, ok := parseBool(s)
		if !ok {
			return nil, k.problem("%q is not a boolean: use true or false (also yes/no, on/off, 1/0)", text)
		}
		v = b
	case Int:
		n, ok := wholeNumber(s)
		if !ok {
			return nil, k.problem("%q is not a whole number: use an integer %s", text, k.rangeText())
		}
		v = n
	case Decimal:
		d, err := parseDec(s)
		if err != nil {
			return nil, k.problem("%q is not a decimal number: use a number such as 0.5 %s", text, k.rangeText())
		}
		v = d
	case Enum:
		v = k.choice(s)
	case List:
		items, err := parseList(s)
		if err != nil {
			return nil, k.problem("%q is not a list: give items as a,b,c or a JSON array", text)
		}
		if (key == KeyRulesDisabled || key == KeySkillsDisabled) && !strings.HasPrefix(s, "[") {
			// A name has no spaces: "tdd docs" typed as one value is two
			// (any other blank is left for check to refuse).
			names := make([]string, 0, len(items))
			for _, it := range items {
				if f := strings.FieldsFunc(it, func(r rune) bool { return r == ' ' }); len(f) > 0 {
					names = append(names, f...)
				} else {
					names = append(names, it) // an empty item: check says so
				}
			}
			items = names
		}
		v = items
	case String:
		v = s
	case Duration:
		d, err := ParseDuration(s)
		if err != nil {
			return nil, k.problem("%v", err)
		}
		v = d
	}
	return v, k.check(v)
}

// ParseJSON reads a value sent as JSON: booleans, numbers, strings and
// arrays of strings, each as the key's type asks. Enum values match their
// choices in any case and come back in the canonical form.
func ParseJSON(key string, raw json.RawMessage) (any, error) {
	k, err := known(key)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, k.problem("not valid JSON: %v", err)
	}
	var v any
	switch k.Kind {
	case Bool:
		b, ok := x.(bool)
		if !ok {
			return nil, k.problem("want true or false, got %s", raw)
		}
		v = b
	case Int:
		n, ok := x.(json.Number)
		i, whole := wholeNumber(n.String())
		if !ok || !whole {
			return nil, k.problem("want a whole number %s, got %s", k.rangeText(), raw)
		}
		v = i
	case Decimal:
		var s string
		switch t := x.(type) {
		case json.Number:
			s = t.String()
		case string: // exact text survives JSON clients that would round a float
			s = t
		default:
			return nil, k.problem("want a number %s, got %s", k.rangeText(), raw)
		}
		d, err := parseDec(strings.TrimSpace(s))
		if err != nil {
			return nil, k.problem("want a number %s, got %s", k.rangeText(), raw)
		}
		v = d
	case Enum:
		s, ok := x.(string)
		if !ok {
			return nil, k.problem("want one of %s, got %s", strings.Join(k.Choices, ", "), raw)
		}
		v = k.choice(strings.TrimSpace(s))
	case List:
		arr, ok := x.([]any)
		if !ok {
			return nil, k.problem("want an array of strings, got %s", raw)
		}
		items := make([]string, 0, len(arr))
		for _, it := range arr {
			s, ok := it.(string)
			if !ok {
				return nil, k.problem("want an array of strings, got %s", raw)
			}
			items = append(items, strings.TrimSpace(s))
		}
		v = items
	case String, Duration:
		s, ok := x.(string)
		if !ok {
			return nil, k.problem("want a string, got %s", raw)
		}
		return ParseText(key, s)
	}
	return v, k.check(v)
}

func known(key string) (Key, error) {
	k, ok := Lookup(key)
	if !ok {
		return Key{}, &ValidationError{Problems: []Problem{unknownKey(key)}}
	}
	return k, nil
}

// UnknownKeyMessage names the key and, when one is close, the likely one.
func UnknownKeyMessage(key string) string {
	msg := fmt.Sprintf("unknown setting %q", key)
	if s := suggest(key); s != "" {
		return msg + fmt.Sprintf(": did you mean %q?", s)
	}
	return msg + ": run `charter settings list` to see every key"
}

func (k Key) problem(format string, args ...any) error {
	return &ValidationError{Problems: []Problem{{Key: k.Name, Code: core.CodeInvalidValue, Message: k.Name + ": " + fmt.Sprintf(format, args...)}}}
}

// choice returns the allowed value s names in any case (Full → full), or
// s itself for check to refuse.
func (k Key) choice(s string) string {
	for _, c := range k.Choices {
		if strings.EqualFold(s, c) {
			return c
		}
	}
	return s
}

// check validates a parsed value against the key's choices and range.
func (k Key) check(v any) error {
	switch k.Kind {
	case Enum:
		s := v.(string)
		for _, c := range k.Choices {
			if s == c {
				return nil
			}
		}
		return k.problem("%q is not allowed: use one of %s", s, strings.Join(k.Choices, ", "))
	case Int, Decimal:
		var n any = v
		if d, ok := v.(Dec); ok {
			n = string(d)
			// Editors, scripts and the hub read numbers as binary64 floats:
			// past its range they see infinity, not this number.
			if f, _ := strconv.ParseFloat(string(d), 64); math.IsInf(f, 0) {
				return k.problem("%s is past the largest number editors and scripts can read (about 1.8e308): use a smaller number", d)
			}
		}
		if k.Min != "" {
			if c, err := decmath.Compare(n, k.Min.String(), decmath.DefaultScale); err != nil || c < 0 {
				return k.problem("%v is out of range: use a number %s", v, k.rangeText())
			}
		}
		if k.Max != "" {
			if c, err := decmath.Compare(n, k.Max.String(), decmath.DefaultScale); err != nil || c > 0 {
				return k.problem("%v is out of range: use a number %s", v, k.rangeText())
			}
		}
	case List:
		for _, it := range v.([]string) {
			if it == "" {
				return k.problem("the list has an empty item: give each %s once, as a,b,c (no empty item between commas)", k.Item)
			}
			if err := k.checkText(it); err != nil {
				return err
			}
		}
		// The grammar is checked once every item is plain text, so that a
		// control character is named as such wherever it is.
		for _, it := range v.([]string) {
			if k.ItemCheck == nil {
				break
			}
			if msg := k.ItemCheck(it); msg != "" {
				return k.problem("%s", msg)
			}
		}
	case String:
		return k.checkText(v.(string))
	case Duration:
		return k.checkDuration(v.(string))
	}
	return nil
}

func (k Key) rangeText() string {
	switch {
	case k.Min != "" && k.Max != "":
		return fmt.Sprintf("from %s to %s", k.Min, k.Max)
	case k.Min != "":
		return fmt.Sprintf("of at least %s", k.Min)
	}
	return ""
}

// wholeNumber reads an integer, also written as a whole decimal (4.0,
// 1e1), as JSON Schema's "integer" allows. A number too large for int64
// is refused here rather than wrapped.
func wholeNumber(s string) (int64, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, true
	}
	if s == "" || strings.ContainsAny(s, "_xXpP") {
		return 0, false
	}
	d, err := decimal.NewFromString(s)
	if err != nil || !d.IsInteger() || d.Abs().GreaterThan(decimal.NewFromInt(math.MaxInt64)) {
		return 0, false
	}
	return d.IntPart(), true
}

func parseBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "true", "yes", "on", "1":
		return true, true
	case "false", "no", "off", "0":
		return false, true
	}
	return false, false
}

// parseDec accepts a plain decimal (no exponent beyond what decimal reads,
// no NaN or Inf) and returns its canonical text.
func parseDec(s string) (Dec, error) {
	if s == "" || strings.ContainsAny(s, "_xXpP") {
		return "", fmt.Errorf("not a decimal: %q", s)
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return "", err
	}
	return Dec(d.String()), nil
}

// ParseDuration reads a Go duration ("90s", "1h30m") that is more than
// zero and returns its canonical text: Go's own form without trailing zero
// units ("90s" → "1m30s", "600s" → "10m").
func ParseDuration(s string) (string, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return "", fmt.Errorf("%q is not a duration: use a number with a unit, such as 90s, 10m or 1h", s)
	}
	if d <= 0 {
		return "", fmt.Errorf("%q is not more than zero: use a duration such as 90s, 10m or 1h", s)
	}
	return canonicalDuration(d), nil
}

func canonicalDuration(d time.Duration) string {
	t := d.String()
	if strings.HasSuffix(t, "m0s") {
		t = strings.TrimSuffix(t, "0s")
	}
	if strings.HasSuffix(t, "h0m") {
		t = strings.TrimSuffix(t, "0m")
	}
	return t
}

// DurationValue is a duration setting's value (its canonical text) as a
// time.Duration; 0 when it is not one.
func DurationValue(v any) time.Duration {
	s, _ := v.(string)
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0
	}
	return d
}

func parseList(s string) ([]string, error) {
	if s == "" {
		return []string{}, nil
	}
	if strings.HasPrefix(s, "[") {
		var items []string
		if err := json.Unmarshal([]byte(s), &items); err != nil {
			return nil, err
		}
		for i := range items {
			items[i] = strings.TrimSpace(items[i])
		}
		return items, nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts, nil
}

// suggest returns the schema key closest to key, if any is close enough:
// a key named by its last segments, else the nearest by edit distance.
func suggest(key string) string {
	names := Names()
	for _, n := range names {
		if strings.HasSuffix(n, "."+key) {
			return n
		}
	}
	return words.Nearest(key, names)
}
