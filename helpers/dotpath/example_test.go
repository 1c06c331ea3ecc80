package dotpath_test

import (
	"fmt"

	"github.com/agentkit/charter/helpers/dotpath"
)

func ExampleSegments() {
	segs, _ := dotpath.Segments("servers.0.host")
	fmt.Printf("%q\n", segs)
	_, err := dotpath.Segments("a..b")
	fmt.Println(err)
	// Output:
	// ["servers" "0" "host"]
	// invalid dot-path syntax: double dot in "a..b"
}

func ExampleBuildPrefix() {
	fmt.Println(dotpath.BuildPrefix("", "servers"))
	fmt.Println(dotpath.BuildPrefix("servers", 0))
	// Output:
	// servers
	// servers.0
}

func ExampleContainsWildcard() {
	for _, p := range []string{"servers.*.host", "a*b"} {
		w, _ := dotpath.ContainsWildcard(p)
		fmt.Println(p, w)
	}
	// Output:
	// servers.*.host true
	// a*b false
}
