package settings

import (
	"strconv"
	"strings"

	"github.com/agentkit/charter/core/lazy"
)

// syntaxProblem says in plain words what the YAML parser found wrong in
// data, and where. The parser's own words (`found character that cannot
// start any token`) name its tokens, not the user's mistake, and it often
// names no line or the line a construct began on; the common mistakes are
// found again in the text, so the line is the one to fix.
func syntaxProblem(err error, data []byte) *FileProblem {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line, msg = n, strings.TrimSpace(rest[i+1:])
			}
		}
	}
	lines := strings.Split(string(data), "\n")
	plain, at := plainSyntax(msg, lines)
	if at > 0 {
		line = at
	}
	return &FileProblem{Line: line, Message: plain, syntax: true}
}

var reUnknownAnchor = lazy.Regexp{Expr: `^unknown anchor '(.*)' referenced$`}

// plainSyntax maps one parser message to plain words, with the line the
// text shows the mistake on (0: keep the parser's line).
func plainSyntax(msg string, lines []string) (string, int) {
	if n := tabIndent(lines); n > 0 && (strings.Contains(msg, "tab character") || strings.Contains(msg, "cannot start any token")) {
		return "this line is indented with a tab: YAML indents with spaces only, so replace the tab with spaces", n
	}
	if n, q := unclosedQuote(lines); n > 0 && (strings.Contains(msg, "end of stream") || strings.Contains(msg, "quoted scalar")) {
		return "the quote (" + q + ") that opens this value is never closed: add the closing " + q + " at the end of the value", n
	}
	if n, open := unclosedBracket(lines); n > 0 && (strings.Contains(msg, "node content") || strings.Contains(msg, "expected ','") || strings.Contains(msg, "end of stream")) {
		what := map[string]string{"[": "a list opened with [ is not closed with ]", "{": "a mapping opened with { is not closed with }"}[open]
		return what + ": close it, or put the value in quotes if the " + open + " is meant as text", n
	}
	switch {
	case strings.Contains(msg, "cannot start any token"):
		n, c := reservedStart(lines)
		return "a value starts with " + c + ", which YAML reserves: put the value in quotes (\"…\")", n
	case strings.Contains(msg, "did not find expected node content"):
		n, c := reservedStart(lines)
		return "a value is missing or starts with " + c + ", which YAML reads as punctuation: put the value in quotes (\"…\")", n
	case strings.Contains(msg, "mapping values are not allowed"):
		if n := colonInValue(lines); n > 0 {
			return "a colon followed by a space inside a value: put the value in quotes (\"a: b\")", n
		}
		return "a key indented deeper than the key above it: line it up with the keys beside it", misindented(lines)
	case strings.Contains(msg, "did not find expected key"):
		return "a key indented differently from the keys beside it: line it up with them (YAML nests by indentation)", misindented(lines)
	case strings.Contains(msg, "could not find expected ':'"):
		return "a line with no colon: every setting is written `key: value`", 0
	case strings.Contains(msg, "expected ',' or ']'"):
		return "a list opened with [ is not closed with ]", 0
	case strings.Contains(msg, "expected ',' or '}'"):
		return "a mapping opened with { is not closed with }", 0
	case strings.Contains(msg, "expected '-' indicator"), strings.Contains(msg, "expected <block end>"):
		return "a list item (- …) and a key (key: …) are mixed at one indentation: indent the lines of one list or mapping alike", misindented(lines)
	case strings.Contains(msg, "unknown escape character"):
		return "a backslash in double quotes that YAML does not know as an escape: use single quotes ('C:\\dir'), or write \\\\ for one backslash", 0
	case strings.Contains(msg, "end of stream"):
		return "the file ends inside an open quote or bracket: close it", 0
	case reUnknownAnchor.Get().MatchString(msg):
		name := reUnknownAnchor.Get().FindStringSubmatch(msg)[1]
		at := 0
		for i, l := range lines {
			if v := lineValue(l); v == "*"+name || strings.HasPrefix(v, "*"+name+" ") {
				at = i + 1
				break
			}
		}
		return "*" + name + " refers to an anchor &" + name + " that is not defined: put the value in quotes if the * is meant as text", at
	case strings.Contains(msg, "invalid") && strings.Contains(msg, "UTF-8"), strings.Contains(msg, "control characters"):
		return "the file is not plain UTF-8 text: save it as UTF-8, without control characters", 0
	}
	return "the file is not valid YAML (" + msg + ")", 0
}

// tabIndent is the first line (1-based) whose indentation holds a tab.
func tabIndent(lines []string) int {
	for i, l := range lines {
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if strings.Contains(indent, "\t") && strings.TrimSpace(l) != "" {
			return i + 1
		}
	}
	return 0
}

// unclosedQuote is the first line whose value opens a quote that the line
// does not close, and that quote.
func unclosedQuote(lines []string) (int, string) {
	for i, l := range lines {
		v := lineValue(l)
		if v == "" || (v[0] != '"' && v[0] != '\'') {
			continue
		}
		q := v[:1]
		rest := v[1:]
		if q == `"` {
			rest = strings.ReplaceAll(rest, `\\`, "")
			rest = strings.ReplaceAll(rest, `\"`, "")
		} else {
			rest = strings.ReplaceAll(rest, "''", "")
		}
		if !strings.Contains(rest, q) {
			return i + 1, q
		}
	}
	return 0, ""
}

// unclosedBracket is the first line whose value opens a [ or { that the
// line does not close, and that bracket.
func unclosedBracket(lines []string) (int, string) {
	for i, l := range lines {
		v := lineValue(l)
		if v == "" || (v[0] != '[' && v[0] != '{') {
			continue
		}
		open, closing := v[:1], map[byte]string{'[': "]", '{': "}"}[v[0]]
		if strings.Count(v, open) > strings.Count(v, closing) {
			return i + 1, open
		}
	}
	return 0, ""
}

// misindented is the first line whose indentation matches no open block:
// deeper than the line above without that line opening a block, or
// shallower than it but not back at an enclosing block's indentation.
func misindented(lines []string) int {
	stack := []int{0}
	opens := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		ind := len(l) - len(strings.TrimLeft(l, " "))
		for len(stack) > 1 && stack[len(stack)-1] > ind {
			stack = stack[:len(stack)-1]
		}
		switch top := stack[len(stack)-1]; {
		case ind > top && opens:
			stack = append(stack, ind)
		case ind != top:
			return i + 1
		}
		opens = strings.HasSuffix(t, ":") || t == "-"
	}
	return 0
}

// reservedStart is the first line whose value starts with a character YAML
// reserves, and that character.
func reservedStart(lines []string) (int, string) {
	for i, l := range lines {
		if v := lineValue(l); v != "" && strings.ContainsAny(v[:1], "@`%]},|>") && v != "|" && v != ">" {
			return i + 1, v[:1]
		}
	}
	return 0, "a character such as @, ` or ]"
}

// colonInValue is the first line whose value holds ": " outside quotes.
func colonInValue(lines []string) int {
	for i, l := range lines {
		v := lineValue(l)
		if v != "" && v[0] != '"' && v[0] != '\'' && strings.Contains(v, ": ") {
			return i + 1
		}
	}
	return 0
}

// lineValue is the text after a line's `key: ` or `- `, without a comment.
func lineValue(line string) string {
	s := strings.TrimSpace(line)
	if strings.HasPrefix(s, "#") {
		return ""
	}
	if rest, ok := strings.CutPrefix(s, "- "); ok {
		s = rest
	} else if _, v, ok := strings.Cut(s, ": "); ok {
		s = v
	} else {
		return ""
	}
	if i := strings.Index(s, " #"); i >= 0 && s[0] != '"' && s[0] != '\'' {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
