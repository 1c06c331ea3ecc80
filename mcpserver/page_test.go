package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/content"
	"github.com/agentkit/charter/core/session"
)

// A list tool pages through the whole list: every item once, in order,
// each page at most limit long, total the count of all of them.
func TestListPages(t *testing.T) {
	e := newEnv(t)
	var want []string
	for i := range 7 {
		name := fmt.Sprintf("r%d", i)
		want = append(want, name)
		e.write(t, filepath.Join(e.scope.Path, "rules", name+".md"), "---\ndescription: one.\n---\nDo it.\n")
	}
	cs := connect(t, e.server(), newClient(noRoots), "")
	var got []string
	args := map[string]any{"limit": 3}
	for pages := 0; ; pages++ {
		if pages > 3 {
			t.Fatalf("more pages than 7 items in 3s need: %v", got)
		}
		var l ItemList
		structured(t, call(t, cs, "rules_list", args), &l)
		if l.Total != 7 || len(l.Items) > 3 {
			t.Fatalf("page: total %d, %d items", l.Total, len(l.Items))
		}
		for _, it := range l.Items {
			got = append(got, it.Name)
		}
		if l.NextCursor == "" {
			break
		}
		args = map[string]any{"limit": 3, "cursor": l.NextCursor}
	}
	if !slices.Equal(got, want) {
		t.Errorf("pages gave %v, want %v", got, want)
	}

	var all ItemList
	structured(t, call(t, cs, "rules_list", map[string]any{}), &all)
	if len(all.Items) != 7 || all.NextCursor != "" {
		t.Errorf("default page: %d items, cursor %q", len(all.Items), all.NextCursor)
	}
}

// A cursor whose item was deleted meanwhile resumes after its name.
func TestListCursorAfterDelete(t *testing.T) {
	e := newEnv(t)
	for _, n := range []string{"a", "b", "c", "d"} {
		e.write(t, filepath.Join(e.scope.Path, "rules", n+".md"), "---\ndescription: one.\n---\nDo it.\n")
	}
	cs := connect(t, e.server(), newClient(noRoots), "")
	var first ItemList
	structured(t, call(t, cs, "rules_list", map[string]any{"limit": 2}), &first)
	if first.NextCursor != "b" {
		t.Fatalf("first page cursor %q, want b", first.NextCursor)
	}
	if err := os.Remove(filepath.Join(e.scope.Path, "rules", "b.md")); err != nil {
		t.Fatal(err)
	}
	var next ItemList
	structured(t, call(t, cs, "rules_list", map[string]any{"limit": 2, "cursor": "b"}), &next)
	if len(next.Items) != 2 || next.Items[0].Name != "c" || next.Items[1].Name != "d" || next.Total != 3 {
		t.Errorf("after delete: %+v", next)
	}
}

// A limit out of range is a usage error naming the range.
func TestListLimitRange(t *testing.T) {
	e := newEnv(t)
	cs := connect(t, e.server(), newClient(noRoots), "")
	for _, limit := range []int{-1, 501} {
		res := call(t, cs, "skills_list", map[string]any{"limit": limit})
		if !res.IsError || toolErr(t, res)["code"] != "usage" {
			t.Errorf("limit %d: %v", limit, res.Content)
		}
	}
}

// A page names each set of receivers once; every item's set is the
// receivedBy its _get tool spells out, a disabled item's is "none", and
// the page holds no set that no item uses.
func TestListReceiverSets(t *testing.T) {
	e := newEnv(t)
	rules := filepath.Join(e.scope.Path, "rules")
	e.write(t, filepath.Join(e.scope.Path, "settings.yaml"), "rules:\n  disabled: [off]\n")
	for _, n := range []string{"a", "b", "off"} {
		e.write(t, filepath.Join(rules, n+".md"), "---\ndescription: one.\n---\nDo it.\n")
	}
	e.write(t, filepath.Join(rules, "c.md"), "---\ndescription: one.\nagents: [claude, codex]\n---\nDo it.\n")
	e.write(t, filepath.Join(rules, "d.md"), "---\ndescription: one.\nagents: [codex, claude]\n---\nDo it.\n")
	cs := connect(t, e.server(), newClient(noRoots), "")
	var l ItemList
	structured(t, call(t, cs, "rules_list", map[string]any{}), &l)
	used := map[string]bool{}
	for _, it := range l.Items {
		var one session.ContentBody
		structured(t, call(t, cs, "rule_get", map[string]any{"name": it.Name}), &one)
		set, ok := l.ReceiverSets[it.ReceiverSet]
		if !ok || !slices.Equal(set, one.ReceivedBy) || (it.State == "disabled") != (it.ReceiverSet == "none") {
			t.Errorf("%s: receiverSet %q = %v, rule_get says %v", it.Name, it.ReceiverSet, set, one.ReceivedBy)
		}
		used[it.ReceiverSet] = true
	}
	// a and b share every agent; c and d the same two; off none.
	if len(l.ReceiverSets) != 3 || len(used) != 3 || l.Items[0].ReceiverSet != l.Items[1].ReceiverSet || l.Items[2].ReceiverSet != l.Items[3].ReceiverSet {
		t.Errorf("receiverSets %v, items %+v", l.ReceiverSets, l.Items)
	}
}

// A page's item is content.Entry's JSON but for kind: a field added to
// an item must reach the page too.
func TestPageItemHasEntrysFields(t *testing.T) {
	tags := func(typ reflect.Type) map[string]string {
		out := map[string]string{}
		for _, f := range reflect.VisibleFields(typ) {
			if tag := f.Tag.Get("json"); f.IsExported() && !f.Anonymous && tag != "-" {
				out[strings.Split(tag, ",")[0]] = tag
			}
		}
		return out
	}
	entry, item := tags(reflect.TypeFor[content.Entry]()), tags(reflect.TypeFor[PageItem]())
	delete(entry, "kind")
	delete(item, "receiverSet")
	if !reflect.DeepEqual(entry, item) {
		t.Errorf("a page's item has %v, content.Entry %v (less kind)", item, entry)
	}
}

// A page leaves out a rule's tier when it is balanced, the default, and
// keeps any other.
func TestPageLeavesOutTheDefaultTier(t *testing.T) {
	items := []session.ContentItem{
		{Entry: content.Entry{Item: content.Item{Kind: content.KindRule, Name: "a", Tier: content.TierBalanced}, State: content.StateActive}},
		{Entry: content.Entry{Item: content.Item{Kind: content.KindRule, Name: "b", Tier: content.TierFull}, State: content.StateBelowTier}},
	}
	l, err := page(items, PageInput{})
	if err != nil || len(l.Items) != 2 || l.Items[0].Tier != "" || l.Items[1].Tier != content.TierFull || l.Items[1].State != content.StateBelowTier {
		t.Errorf("page %+v, %v", l.Items, err)
	}
}
