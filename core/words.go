package core

import "github.com/agentkit/charter/helpers/words"

// Plural counts n of a noun that takes an s: "1 key", "3 keys", "0 keys".
func Plural(n int, noun string) string { return words.Plural(n, noun) }
