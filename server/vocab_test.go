package server

import (
	"encoding/json"
	"testing"
)

// Content documents name an item's source file origin, as settings
// documents do (issue 38); path is left for what means something else (a
// layer's settings file).
func TestContentSaysOrigin(t *testing.T) {
	_, r, _ := contentEnv(t)
	for _, p := range []string{"api/v1/content", "api/v1/content/rule/tone"} {
		rp := r.do("GET", p, "")
		var doc struct {
			Items []map[string]any `json:"items"`
		}
		if p == "api/v1/content" {
			if err := json.Unmarshal(rp.body, &doc); err != nil || len(doc.Items) == 0 {
				t.Fatalf("%s: %v %s", p, err, rp.body)
			}
		} else {
			doc.Items = []map[string]any{rp.json(t)}
		}
		for _, it := range doc.Items {
			if o, _ := it["origin"].(string); o == "" || it["path"] != nil {
				t.Errorf("%s: item %v has origin %q and path %v", p, it["name"], o, it["path"])
			}
		}
	}
}
