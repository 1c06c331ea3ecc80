package shell_test

import (
	"fmt"

	"github.com/agentkit/charter/helpers/shell"
)

func ExampleQuote() {
	fmt.Println(shell.Quote("/usr/local/bin/charter"))
	fmt.Println(shell.Quote("/opt/my tools/charter"))
	fmt.Println(shell.Quote("it's"))
	// Output:
	// /usr/local/bin/charter
	// '/opt/my tools/charter'
	// 'it'\''s'
}

func ExampleJoin() {
	fmt.Println(shell.Join([]string{"charter", "trust", "--project-dir", "$HOME/repo"}))
	// Output: charter trust --project-dir '$HOME/repo'
}
