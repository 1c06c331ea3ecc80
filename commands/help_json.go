package commands

import (
	"reflect"
	"strings"
	"time"

	"github.com/alecthomas/kong"
)

// The help's JSON form (`charter help --json`, `charter help COMMAND
// --json`, `--help --json`), made from the same Kong model as the text.

type helpJSON struct {
	Command     string        `json:"command"`
	Usage       string        `json:"usage"`
	Description string        `json:"description"`
	Detail      string        `json:"detail,omitempty"`
	Arguments   []helpArg     `json:"arguments"`
	Flags       []helpFlag    `json:"flags"`
	Commands    []helpCommand `json:"commands"`
	Topics      []helpTopic   `json:"topics,omitempty"`
}

type helpArg struct {
	Name     string  `json:"name"`
	Type     string  `json:"type"`
	Required bool    `json:"required"`
	Repeated bool    `json:"repeated"`
	Default  *string `json:"default"`
	Help     string  `json:"help"`
}

type helpFlag struct {
	Name        string   `json:"name"`
	Short       string   `json:"short,omitempty"`
	Type        string   `json:"type"`
	Placeholder string   `json:"placeholder,omitempty"`
	Default     *string  `json:"default"`
	Enum        []string `json:"enum,omitempty"`
	Help        string   `json:"help"`
	Global      bool     `json:"global"` // applies to every command
}

type helpCommand struct {
	Command string `json:"command"`
	Usage   string `json:"usage"`
	Help    string `json:"help"`
}

type helpTopic struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
	Command string `json:"command"`
}

// helpDoc describes node (nil: charter itself).
func helpDoc(node *kong.Node, app *kong.Application) helpJSON {
	if node == nil {
		node = app.Node
	}
	doc := helpJSON{
		Command: commandText(node), Usage: usageLine(node), Description: node.Help, Detail: node.Detail,
		Arguments: []helpArg{}, Flags: []helpFlag{}, Commands: []helpCommand{},
	}
	for _, p := range node.Positional {
		doc.Arguments = append(doc.Arguments, helpArg{Name: argName(p), Type: valueType(p), Required: p.Required,
			Repeated: p.IsCumulative(), Default: defaultOf(p), Help: p.Help})
	}
	for _, f := range allFlags(node) {
		hf := helpFlag{Name: f.Name, Type: valueType(f.Value), Default: defaultOf(f.Value), Help: f.Help, Global: f.Group == globalGroup || (f.Group != nil && f.Group.Key == globalGroup.Key)}
		if f.Short != 0 {
			hf.Short = string(f.Short)
		}
		if !f.IsBool() {
			hf.Placeholder = f.FormatPlaceHolder()
		}
		if f.Enum != "" {
			hf.Enum = f.EnumSlice()
		}
		doc.Flags = append(doc.Flags, hf)
	}
	for _, c := range node.Leaves(true) {
		if c == node || c.Type != kong.CommandNode {
			continue
		}
		doc.Commands = append(doc.Commands, helpCommand{Command: commandText(c), Usage: usageLine(c), Help: c.Help})
	}
	if node.Parent == nil {
		for _, t := range topics() {
			doc.Topics = append(doc.Topics, helpTopic{Name: t.Name, Summary: t.Summary, Command: "charter help " + t.Name})
		}
	}
	return doc
}

func defaultOf(v *kong.Value) *string {
	if !v.HasDefault {
		return nil
	}
	d := v.Default
	return &d
}

// valueType names a value's type as a user writes it.
func valueType(v *kong.Value) string {
	switch {
	case v.IsCounter():
		return "counter"
	case v.IsBool():
		return "bool"
	case v.Enum != "":
		return "enum"
	}
	t := v.Target.Type()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[time.Duration]() {
		return "duration"
	}
	switch t.Kind() {
	case reflect.Slice:
		return "list of " + strings.TrimPrefix(kindName(t.Elem()), "list of ")
	case reflect.Map:
		return "map"
	}
	return kindName(t)
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "int"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Bool:
		return "bool"
	}
	return "string"
}
