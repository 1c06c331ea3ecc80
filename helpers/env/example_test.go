package env_test

import (
	"fmt"

	"github.com/agentkit/charter/helpers/env"
)

// A map stands in for the process environment.
func lookupIn(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

func ExampleNew() {
	e := env.New(lookupIn(map[string]string{"PORT": "8080", "DEBUG": "TRUE", "RATIO": "0.75x"}))

	port, _ := e.Integer("PORT", 80, false)
	debug, _ := e.Boolean("DEBUG", false, true)
	ratio, _ := e.Float("RATIO", nil, true)
	missing, _ := e.Integer("WORKERS", nil, true)
	fmt.Println(*port, *debug, *ratio, missing == nil)
	// Output: 8080 true 0.75 true
}

func ExampleEnv_Integer() {
	e := env.New(lookupIn(map[string]string{"N": "12abc"}))

	lenient, _ := e.Integer("N", nil, true)
	fmt.Println(*lenient)
	_, err := e.Integer("N", nil, false)
	fmt.Println(err)
	// Output:
	// 12
	// env: N: want integer, got "12abc"
}

func ExampleEnv_Boolean() {
	e := env.New(lookupIn(map[string]string{"A": "0.0", "B": "yes", "C": "True"}))
	for _, k := range []string{"A", "B", "C"} {
		b, _ := e.Boolean(k, nil, true)
		fmt.Println(k, *b)
	}
	// Output:
	// A false
	// B false
	// C true
}

func ExampleEnv_Array() {
	e := env.New(lookupIn(map[string]string{"HOSTS": " a, b ,,c "}))
	fmt.Printf("%q\n", e.Array("HOSTS", nil, ","))
	fmt.Printf("%q\n", e.Array("UNSET", []string{"x"}, ","))
	// Output:
	// ["a" "b" "" "c"]
	// ["x"]
}
