package objcopy_test

import (
	"fmt"

	"github.com/agentkit/charter/helpers/objcopy"
)

type Server struct {
	Name  string
	Tags  []string
	Owner *Person
}

type Person struct {
	Name    string
	Manager *Person
}

func ExampleCopy() {
	boss := &Person{Name: "ada"}
	orig := &Server{Name: "web", Tags: []string{"prod"}, Owner: &Person{Name: "bob", Manager: boss}}

	// The server is level 1, its owner level 2, the owner's manager level 3.
	cp, _ := objcopy.Copy(orig, true, 1)
	cp.Tags[0] = "staging"
	cp.Owner.Name = "eve"

	fmt.Println(orig.Tags[0], orig.Owner.Name)
	fmt.Println(cp.Owner != orig.Owner, cp.Owner.Manager == boss)

	shallow, _ := objcopy.Copy(orig, false, objcopy.DefaultMaxLevel)
	fmt.Println(shallow != orig, shallow.Owner == orig.Owner)
	// Output:
	// prod bob
	// true true
	// true true
}
