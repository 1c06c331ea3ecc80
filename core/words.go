package core

import "fmt"

// Plural counts n of a noun that takes an s: "1 key", "3 keys", "0 keys".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
