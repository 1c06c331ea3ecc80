package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/session"
)

// ListInput filters a kind's list; path only for rules.
type ListInput struct{}

// NameInput names one item.
type NameInput struct {
	Name string `json:"name" jsonschema:"the item's name, as the list tool shows it"`
}

// ContentList is the effective items of kind k for the client's
// directory; for rules, with path, those that apply to it. The whole
// list of a kind is kept while the library and the selection stay the
// same (session.KeptLists).
func (l *Local) ContentList(ctx context.Context, dir string, k content.Kind, path string) ([]session.ContentItem, error) {
	return l.session(dir).ContentList(ctx, k, path)
}

// ContentGet is one item with its body.
func (l *Local) ContentGet(ctx context.Context, dir string, k content.Kind, name string) (session.ContentBody, error) {
	return l.session(dir).ContentShow(ctx, k, name)
}

// addContentTools registers <kind>s_list and <kind>_get for each kind.
func (s *Server) addContentTools(readOnly *mcp.ToolAnnotations) {
	for _, k := range session.ContentKinds() {
		plural := k.Dir()
		if k == content.KindSubagent {
			plural = "subagents"
		}
		get := func(ctx context.Context, req *mcp.CallToolRequest, dir string, in NameInput) (session.ContentBody, error) {
			return s.b.ContentGet(ctx, dir, k, in.Name)
		}
		desc := fmt.Sprintf("Every %s charter governs here (the effective set of `charter %s list --json`): name, layer and level, path of its source, state (active, disabled, below_tier, policy), description, the fields of its kind (a rule's tier is left out when balanced, the default), and receiverSet, the key in the page's receiverSets of the agents that get it (each set of agents is named once a page; none is the empty set). A page at a time (100 items unless limit says otherwise); total counts them all, and while more follow, nextCursor is the cursor of the next page. %s_get shows one item with its receivedBy spelled out.", k, plural, k)
		if k == content.KindRule {
			addTool(s, &mcp.Tool{
				Name: "rules_list", Title: "List the rules", Annotations: readOnly,
				Description: desc + " With path, only the rules in effect that apply to that file: those whose globs match it and those without globs, which always apply." +
					" Globs are anchored at the project root: * and ? stay inside one path segment, ** is any number of segments, {a,b} either, [a-z] a class; dotfiles are not special.",
			}, func(ctx context.Context, req *mcp.CallToolRequest, dir string, in RulesInput) (ItemList, error) {
				return s.list(ctx, dir, k, in.Path, in.PageInput)
			})
		} else {
			addTool(s, &mcp.Tool{
				Name: plural + "_list", Title: "List the " + plural, Annotations: readOnly, Description: desc,
			}, func(ctx context.Context, req *mcp.CallToolRequest, dir string, in PageInput) (ItemList, error) {
				return s.list(ctx, dir, k, "", in)
			})
		}
		addTool(s, &mcp.Tool{
			Name: string(k) + "_get", Title: "Show a " + string(k), Annotations: readOnly,
			Description: fmt.Sprintf("One %s with its fields and its body (`charter %s show NAME --json`).", k, plural),
		}, get)
	}
}

// list is one page of a kind's items.
func (s *Server) list(ctx context.Context, dir string, k content.Kind, path string, in PageInput) (ItemList, error) {
	items, err := s.b.ContentList(ctx, dir, k, path)
	if err != nil || path != "" || len(items) == 0 {
		if err != nil {
			return ItemList{}, err
		}
		return page(items, in)
	}
	// The backend hands out the same kept list while nothing changed:
	// then the page and its JSON are the ones made for it before.
	s.pagesMu.Lock()
	kept, ok := s.pages[k]
	s.pagesMu.Unlock()
	if ok && kept.in == in && len(kept.from) == len(items) && &kept.from[0] == &items[0] {
		return kept.page, nil
	}
	out, err := page(items, in)
	if err != nil {
		return ItemList{}, err
	}
	if out.encoded, err = json.Marshal(out); err != nil {
		return ItemList{}, err
	}
	s.pagesMu.Lock()
	defer s.pagesMu.Unlock()
	if s.pages == nil {
		s.pages = map[content.Kind]keptPage{}
	}
	s.pages[k] = keptPage{from: items, in: in, page: out}
	return out, nil
}

// keptPage is the last page of a kind's list and its JSON. It holds the
// list it was cut from, so that list's address is not reused meanwhile.
type keptPage struct {
	from []session.ContentItem
	in   PageInput
	page ItemList
}
