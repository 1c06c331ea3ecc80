package settings

import "fmt"

// Every string a setting holds (a String value, a List item) is one line
// of text: apply writes it into agent instruction files, and a line break
// there could end a code span, start a line of its own and forge charter's
// markers. So no control character is allowed, C0 (TAB included: a shell
// command gains nothing from a tab that a space does not give it) and C1,
// DEL, nor the Unicode line and paragraph separators. Checked wherever a
// value comes in: the command line, the HTTP API, every settings file read.

// textPattern is the same rule as JSON Schema (ECMA-262) sees it, for
// editors; TestTextPatternAgrees holds the two together. It is written in
// the part of the syntax ECMA-262 and Go's regexp share (\xHH, and the
// two separators as themselves), so that a Go validator reads it too.
const textPattern = `^[^\x00-\x1F\x7F-\x9F` + "\u2028\u2029" + `]*$`

// ForbiddenRune reports whether r may not appear in a setting's text.
func ForbiddenRune(r rune) bool {
	return r < 0x20 || (r >= 0x7F && r <= 0x9F) || r == '\u2028' || r == '\u2029'
}

// checkText refuses s when it holds a character ForbiddenRune refuses, naming
// the character and where it is.
func (k Key) checkText(s string) error {
	for i, r := range []rune(s) {
		if ForbiddenRune(r) {
			return k.problem("the value contains %s at character %d: a setting is one line of text, without control characters (%s)",
				runeName(r), i+1, k.oneLine())
		}
	}
	return nil
}

// oneLine is how to say the same thing on one line.
func (k Key) oneLine() string {
	if k.Kind == Duration {
		return "write the duration alone, such as 90s or 10m"
	}
	if k.Kind == List {
		return "give each " + k.Item + " as plain text"
	}
	return "write it on one line, e.g. join commands with && or put them in a script"
}

func runeName(r rune) string {
	names := map[rune]string{
		'\n': "a line feed", '\r': "a carriage return", '\t': "a tab", 0: "a NUL character",
		'\u0085': "a next-line character", '\u2028': "a line separator", '\u2029': "a paragraph separator",
	}
	name, ok := names[r]
	if !ok {
		name = "a control character"
	}
	return fmt.Sprintf("%s (%U)", name, r)
}

// checkDuration refuses a duration above the key's MaxDuration.
func (k Key) checkDuration(v string) error {
	if k.MaxDuration > 0 && DurationValue(v) > k.MaxDuration {
		return k.problem("%s is longer than the %s allowed: use a duration such as 90s, 10m or %s", v, canonicalDuration(k.MaxDuration), canonicalDuration(k.MaxDuration))
	}
	return nil
}
