package words

import "strconv"

// Plural is n and the noun, with an s unless n is 1: "1 check", "3 warnings".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
