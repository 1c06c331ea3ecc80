package settings

// How a value in a settings file is typed: as every YAML 1.2 reader types
// it (the core schema, which the editor's JSON Schema check and charter
// share), and how charter writes text so that YAML 1.1 readers (PyYAML)
// read the same text back.

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"go.yaml.in/yaml/v3"

	"github.com/agentkit/charter/core/lazy"
)

// scalarType is a plain scalar's type under the YAML 1.2 core schema.
type scalarType int

const (
	yStr scalarType = iota
	yNull
	yBool
	yInt
	yFloat
)

// typeOf types a scalar node: quoted and block scalars and those tagged
// !!str are text; a plain scalar is what the core schema resolves it to.
func typeOf(n *yaml.Node) scalarType {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return yStr
	}
	if n.Style&yaml.TaggedStyle != 0 && n.ShortTag() == "!!str" {
		return yStr
	}
	switch n.ShortTag() {
	case "!!str", "!!null", "!!bool", "!!int", "!!float", "!!timestamp":
	default:
		return yStr // another explicit tag: charter reads the text
	}
	switch v := n.Value; {
	case isCoreNull(v):
		return yNull
	case isCoreBool(v):
		return yBool
	case isCoreInt(v):
		return yInt
	case isCoreFloat(v):
		return yFloat
	}
	return yStr
}

func (t scalarType) String() string {
	return [...]string{"text", "empty", "a boolean", "a number", "a number"}[t]
}

// numberValue is a core-schema number's exact value (0x10 → 16, 1e1 → 10);
// false for .inf and .nan.
func numberValue(text string) (decimal.Decimal, bool) {
	s := strings.TrimPrefix(text, "+")
	for prefix, base := range map[string]int{"0x": 16, "0o": 8} {
		if digits, ok := strings.CutPrefix(s, prefix); ok {
			d, err := decimal.NewFromString("0")
			if err != nil {
				return d, false
			}
			for _, c := range strings.ToLower(digits) {
				d = d.Mul(decimal.NewFromInt(int64(base))).Add(decimal.NewFromInt(int64(strings.IndexRune("0123456789abcdef", c))))
			}
			return d, true
		}
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}

// fromNode reads a value from a settings or policy file as its key's type
// asks, with the type every YAML 1.2 reader sees: a boolean is true or
// false, a number is a number (4.0, 1e1 and 0x10 too, when whole for a
// whole-number key), everything else is text whose case and spaces count.
// The text on the command line is read more freely (ParseText). A YAML
// null (`~`, `null`, nothing) returns nil, nil: not set in this file.
func fromNode(k Key, n *yaml.Node) (any, error) {
	if err := k.checkTag(n); err != nil {
		return nil, err
	}
	if n.Kind == yaml.ScalarNode && typeOf(n) == yNull {
		return nil, nil
	}
	if k.Kind == List {
		if n.Kind != yaml.SequenceNode {
			return nil, k.problem("want a list of %ss, as [a, b] or one `- item` a line", k.Item)
		}
		items := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			if err := k.checkTag(c); err != nil {
				return nil, err
			}
			if c.Kind != yaml.ScalarNode || typeOf(c) != yStr {
				return nil, k.problem("want a list of %ss: item %q is %s, not text: write it in quotes", k.Item, c.Value, itemType(c))
			}
			items = append(items, c.Value)
		}
		return items, k.check(items)
	}
	if n.Kind != yaml.ScalarNode {
		return nil, k.problem("want a single value, not a %s", kindName(n.Kind))
	}
	t := typeOf(n)
	var v any
	switch k.Kind {
	case Bool:
		if t != yBool {
			return nil, k.problem("%s is not a boolean: write true or false", shown(n))
		}
		v = strings.EqualFold(n.Value, "true")
	case Int, Decimal:
		d, ok := numberValue(n.Value)
		if (t != yInt && t != yFloat) || !ok {
			return nil, k.problem("%s is not a number: write a number %s, without quotes", shown(n), k.rangeText())
		}
		if k.Kind == Decimal {
			v = Dec(d.String())
			break
		}
		if !d.IsInteger() {
			return nil, k.problem("%s is not a whole number: use an integer %s", n.Value, k.rangeText())
		}
		if err := k.check(Dec(d.String())); err != nil {
			return nil, err
		}
		v = d.IntPart()
	default: // Enum, String, Duration: text
		if t != yStr {
			return nil, k.problem("%s is %s, not text: write it in quotes", n.Value, t)
		}
		if k.Kind == Enum {
			v = n.Value // as written: the editor's check is exact too
			break
		}
		// Only the spaces around text go, as the schema's patterns allow
		// them: a tab, line break or other control character at either
		// end is refused as it is inside, not trimmed away.
		if err := k.checkText(n.Value); err != nil {
			return nil, err
		}
		s := strings.Trim(n.Value, " ")
		v = s
		if k.Kind == Duration {
			d, err := ParseDuration(s)
			if err != nil {
				return nil, k.problem("%v", err)
			}
			v = d
		}
	}
	return v, k.check(v)
}

// checkTag refuses an explicit YAML tag other than !!str: YAML readers
// resolve the others differently (`!!float 5`, `!env x`: one fails on the
// file, one reads a number, one the text), so no schema check can agree
// with all of them.
func (k Key) checkTag(n *yaml.Node) error {
	if n.Style&yaml.TaggedStyle == 0 || n.ShortTag() == "!!str" {
		return nil
	}
	return k.problem("the tag %s before %s is read differently by different YAML readers: remove it (write text in quotes, or tag it !!str)", n.Tag, n.Value)
}

func itemType(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		return "a " + kindName(n.Kind)
	}
	return typeOf(n).String()
}

// shown is a value as the file has it, quoted when it is quoted there.
func shown(n *yaml.Node) string {
	if typeOf(n) == yStr && n.Style != 0 {
		return fmt.Sprintf("%q", n.Value)
	}
	return n.Value
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.AliasNode:
		return "reference to an anchor"
	}
	return "value"
}

// The YAML 1.1 types (yaml.org/type: bool, null, int, float, timestamp,
// merge, value) that readers such as PyYAML still resolve plain scalars
// to, with PyYAML's own variants of the number forms.
var yaml11 = lazy.Regexp{Expr: `^(?:` +
	`y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF` + // bool
	`|~|null|Null|NULL|` + // null
	`|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+` + // int
	`|[-+]?(?:[0-9][0-9_]*)?\.[0-9._]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)` + // float
	`|[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*Z|[-+][0-9]{1,2}(?::[0-9]{2})?)?` + // timestamp
	`|<<|=` + // merge, value
	`)$`}

// strNode is text as charter writes it: quoted when a YAML 1.1 or 1.2
// reader would take the plain text for something else (`off` is false to
// PyYAML, `0o17` a number to the editor).
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yaml11.Get().MatchString(s) || typeOf(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}) != yStr {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// aliasMessage: a settings file is read by other tools too (the editor,
// scripts), and every one of them sees what an alias or a merge key
// stands for; charter refuses both rather than read something else.
const aliasMessage = "aliases and merge keys are not supported in settings files: write the values out"

// aliases finds every alias (*name) and merge key (<<) in a document.
func aliases(n *yaml.Node) []FileProblem {
	var out []FileProblem
	switch {
	case n.Kind == yaml.AliasNode:
		return []FileProblem{{Line: n.Line, Message: aliasMessage}}
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!merge":
		return []FileProblem{{Line: n.Line, Message: aliasMessage}}
	}
	for _, c := range n.Content {
		out = append(out, aliases(c)...)
	}
	return out
}

// policyValue reads a policy value as the text a person typed (ParseText:
// `on`, `Full`), as policies always have: a policy has no published
// schema for an editor to disagree with.
func policyValue(k Key, n *yaml.Node) (any, error) {
	if k.Kind == List {
		if n.Kind != yaml.SequenceNode {
			if n.Kind == yaml.ScalarNode && typeOf(n) == yNull {
				return []string{}, nil
			}
			return nil, k.problem("want a list of %ss", k.Item)
		}
		items := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return nil, k.problem("want a list of %ss", k.Item)
			}
			items = append(items, c.Value)
		}
		return items, k.check(items)
	}
	if n.Kind != yaml.ScalarNode {
		return nil, k.problem("want a single value, not a %s", kindName(n.Kind))
	}
	if typeOf(n) == yNull {
		return ParseText(k.Name, "") // `~` is empty, never the text "~"
	}
	return ParseText(k.Name, n.Value)
}
