package config_test

import (
	"fmt"

	"github.com/agentkit/charter/helpers/config"
)

func ExampleNew() {
	c := config.New(map[string]any{
		"servers":   []any{map[string]any{"host": "a", "port": 8080}},
		"log.level": "debug", // a literal key with a dot
		"log":       map[string]any{"level": "info"},
	})
	fmt.Println(c.Get("servers.0.host", nil))
	fmt.Println(c.GetInteger("servers.0.port", 0))
	fmt.Println(c.GetString("log.level", ""))
	fmt.Println(c.Get("servers.1.host", "none"))
	// Output:
	// a
	// 8080
	// debug
	// none
}

func ExampleConfig_Set() {
	c := config.New(map[string]any{"servers": []any{"a"}})
	fmt.Println(c.Set("servers.1", "b")) // append at the length
	fmt.Println(c.Set("limits.cpu", 2))  // missing levels become maps
	fmt.Println(c.Set("servers.5", "x")) // a gap is an error
	fmt.Println(c.GetArray("servers", nil), c.GetInteger("limits.cpu", 0))
	c.Reset()
	fmt.Println(c.All())
	// Output:
	// <nil>
	// <nil>
	// config: set "servers.5": no index "5" in a slice of length 2 at "servers"
	// [a b] 2
	// map[servers:[a]]
}

func ExampleInstance() {
	config.ResetInstance()
	c := config.Instance()
	fmt.Println(c.GetInteger("cache.max_entries", 0), c.GetString("performance_mode", ""))
	// Output: 1000 fast
}
