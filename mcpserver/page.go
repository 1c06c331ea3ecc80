package mcpserver

import (
	"slices"
	"sort"
	"strconv"

	"github.com/agentkit/charter/core"
	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/errcode"
	"github.com/agentkit/charter/core/session"
)

// A list tool answers a page at a time: a whole library of a thousand
// rules is some 100,000 tokens, more than an agent's context should take
// (Claude Code cuts a tool's output at 25,000 by default) and most of the
// cost of a call.
const (
	defaultPage = 100
	maxPage     = 500
)

// PageInput picks a page of a list tool's items.
type PageInput struct {
	Cursor string `json:"cursor,omitempty" jsonschema:"the nextCursor of the previous page; leave out for the first page"`
	Limit  int    `json:"limit,omitempty" jsonschema:"the most items in this page: 1 to 500, 100 when left out"`
}

// RulesInput asks for the rules, or which rules apply to one file.
type RulesInput struct {
	Path string `json:"path,omitempty" jsonschema:"a file path, relative to the project root or absolute inside the project: only the rules in effect that apply to it (their globs match it, or they have none); leave out for every rule with its state"`
	PageInput
}

// ItemList is a page of a kind's items, as `charter rules list --json`
// prints them but for the receivers: a page names each set of receiving
// agents once, in ReceiverSets, and each item names its set. An agent
// pays for every byte in tokens, and a rule every agent gets would
// otherwise name the same sixteen agents a hundred times a page.
// NextCursor is set while items follow.
type ItemList struct {
	Items        []PageItem          `json:"items"`
	ReceiverSets map[string][]string `json:"receiverSets" jsonschema:"the agents that get an item, by the key its receiverSet names; none is the empty set (an item that is disabled or below the tier)"`
	Total        int                 `json:"total"`
	NextCursor   string              `json:"nextCursor,omitempty"`

	encoded []byte // the page as JSON, when it was kept (Server.list)
}

// encodedJSON is the page's JSON when it is kept, else nil.
func (l ItemList) encodedJSON() []byte { return l.encoded }

// PageItem is one item of a page: its fields as the CLI shows them, but
// for two an agent already knows (a tenth of a page's bytes): the kind,
// which the tool's name says, and a rule's tier when it is balanced, the
// default. Each item names the key of its receivers in the page's
// receiverSets. TestPageItemHasEntrysFields keeps it to content.Entry.
type PageItem struct {
	Name        string             `json:"name"`
	Layer       string             `json:"layer"`
	Level       string             `json:"level"`
	Path        string             `json:"origin"`
	Source      *content.SourceRef `json:"source,omitempty"`
	Description string             `json:"description"`
	Tier        string             `json:"tier,omitempty" jsonschema:"a rule's tier: minimal or full; left out when balanced, the default"`
	Globs       []string           `json:"globs,omitempty"`
	Agents      []string           `json:"agents,omitempty"`
	OnRequest   bool               `json:"onRequest,omitempty"`
	ArgHint     string             `json:"argumentHint,omitempty"`
	Tools       []string           `json:"tools,omitempty"`
	Model       string             `json:"model,omitempty"`
	State       string             `json:"state"`
	ReceiverSet string             `json:"receiverSet" jsonschema:"the key in this page's receiverSets of the agents that get this item"`
}

// pageItem is e on a page, its receivers under key.
func pageItem(e content.Entry, key string) PageItem {
	tier := e.Tier
	if tier == content.TierBalanced {
		tier = ""
	}
	return PageItem{Name: e.Name, Layer: e.Layer, Level: e.Level, Path: e.Path, Source: e.Source, Description: e.Description,
		Tier: tier, Globs: e.Globs, Agents: e.Agents, OnRequest: e.OnRequest, ArgHint: e.ArgHint, Tools: e.Tools, Model: e.Model,
		State: e.State, ReceiverSet: key}
}

// noReceivers is the key of the empty set: self-describing for an agent
// that reads a disabled item.
const noReceivers = "none"

// page cuts items to the page in asks for. The cursor is the name of the
// last item of the page before, so no page repeats an item, and none of
// an unchanged list is skipped.
func page(items []session.ContentItem, in PageInput) (ItemList, error) {
	limit := in.Limit
	switch {
	case limit == 0:
		limit = defaultPage
	case limit < 1 || limit > maxPage:
		return ItemList{}, errcode.Errorf(core.CodeUsage, "limit %d is out of range: ask for 1 to %d items", in.Limit, maxPage)
	}
	start := 0
	if in.Cursor != "" {
		// Items come sorted by name: resume after the cursor's name even
		// when that item has gone meanwhile.
		start = sort.Search(len(items), func(i int) bool { return items[i].Name > in.Cursor })
	}
	end := min(start+limit, len(items))
	out := ItemList{Items: make([]PageItem, 0, end-start), ReceiverSets: map[string][]string{}, Total: len(items)}
	var sets [][]string // the page's sets in order of first use; key sN is sets[N-1]
	for _, it := range items[start:end] {
		key := noReceivers
		if len(it.ReceivedBy) > 0 {
			i := slices.IndexFunc(sets, func(s []string) bool { return slices.Equal(s, it.ReceivedBy) })
			if i < 0 {
				sets = append(sets, it.ReceivedBy)
				i = len(sets) - 1
			}
			key = "s" + strconv.Itoa(i+1)
		}
		out.ReceiverSets[key] = orNone(it.ReceivedBy)
		out.Items = append(out.Items, pageItem(it.Entry, key))
	}
	if end < len(items) {
		out.NextCursor = items[end-1].Name
	}
	return out, nil
}

func orNone(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
