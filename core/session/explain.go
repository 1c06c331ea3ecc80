package session

import (
	"context"
	"fmt"

	"github.com/agentkit/charter/core/companion"
	"github.com/agentkit/charter/core/settings"
)

// Explanation is everything charter knows about one setting.
type Explanation struct {
	Key         string        `json:"key"`
	Description string        `json:"description"`
	Type        string        `json:"type" jsonschema:"bool, int, decimal, enum or list"`
	Allowed     []string      `json:"allowed" jsonschema:"the values an enum takes; null for other types"`
	Minimum     *settings.Dec `json:"minimum" jsonschema:"lowest value of a number; null when unbounded or not a number"`
	Maximum     *settings.Dec `json:"maximum" jsonschema:"highest value of a number; null when unbounded or not a number"`
	Default     any           `json:"default" jsonschema:"the value when no layer sets the key"`
	Value       any           `json:"value" jsonschema:"the effective value"`
	Origin      string        `json:"origin" jsonschema:"the file that gave the value, or default"`
	Layer       string        `json:"layer" jsonschema:"the layer that set the value: default, global, scope, project, projectLocal or policy"`
	Locked      bool          `json:"locked" jsonschema:"whether a policy locks the key, so no layer can change it"`
	Policy      string        `json:"policy,omitempty" jsonschema:"what the policy does to the key, in words; absent when it does nothing"`
}

// SettingsExplain is key's schema entry with its effective value, where it
// comes from and what the policy does to it (MCP's settings_explain).
func (s *Session) SettingsExplain(ctx context.Context, key string) (Explanation, error) {
	if err := ctx.Err(); err != nil {
		return Explanation{}, err
	}
	k, ok := settings.Lookup(key)
	if !ok {
		_, err := settings.ParseText(key, "") // the CLI's unknown_key error, with its suggestion
		if err == nil {
			err = fmt.Errorf("unknown setting %q", key)
		}
		return Explanation{}, err
	}
	st, snap, err := s.Read()
	if err != nil {
		return Explanation{}, err
	}
	e := Explanation{Key: k.Name, Description: k.Description, Type: string(k.Kind), Allowed: k.Choices, Default: k.Default,
		Value: snap.Values[key], Origin: snap.Origins[key], Layer: st.LayerOf(snap.Origins[key]), Policy: st.Policy().Reason(key)}
	_, e.Locked = st.Policy().Locked(key)
	if k.Min != "" {
		e.Minimum = &k.Min
	}
	if k.Max != "" {
		e.Maximum = &k.Max
	}
	return e, nil
}

// SettingsSchema is the JSON Schema of the settings files.
func (s *Session) SettingsSchema() map[string]any { return settings.JSONSchema() }

// DetectInputs is Detect with the paths whose change would change the
// answer: a server keeps the answer while they stay.
func (s *Session) DetectInputs(ctx context.Context) (companion.Detection, []string, error) {
	if err := ctx.Err(); err != nil {
		return companion.Detection{}, nil, err
	}
	return companion.DetectInputs(s.Sys)
}
