package jsonedit

// JSONC: JSON with // and /* */ comments and trailing commas, as VS Code,
// Zed and OpenCode read their settings. The tree is parsed from a copy in
// which comments and trailing commas are blanked (same offsets), so every
// node's offsets hold in the file itself; edits then keep each comment's
// bytes (see insert and Remove).

// OpenJSONC is Open for a file the agent reads as JSONC.
func OpenJSONC(data []byte, fail Fail) (*Doc, error) {
	plain, err := Blank(data, fail)
	if err != nil {
		return nil, err
	}
	d, err := Open(plain, fail)
	if err != nil {
		return nil, err
	}
	d.Data, d.plain = data, plain
	return d, nil
}

// Blank returns data with each comment and trailing comma replaced by
// spaces (line breaks kept), so a strict JSON reader sees the same values
// at the same offsets. An unclosed /* comment is an error.
func Blank(data []byte, fail Fail) ([]byte, error) {
	out := []byte(nil)
	set := func(i int, c byte) {
		if out == nil {
			out = append([]byte(nil), data...)
		}
		out[i] = c
	}
	lastComma := -1 // a comma followed so far by blanks only
	prev := byte(0) // the last byte that is neither blank nor comment
	in := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case in:
			if c == '\\' {
				i++
			} else if c == '"' {
				in = false
			}
			continue
		case c == '"':
			in = true
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			j := i
			for j < len(data) && data[j] != '\n' && data[j] != '\r' {
				set(j, ' ')
				j++
			}
			i = j - 1
			continue
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := -1
			for j := i + 2; j+1 < len(data); j++ {
				if data[j] == '*' && data[j+1] == '/' {
					end = j + 2
					break
				}
			}
			if end < 0 {
				return nil, fail(i, "a /* comment is never closed: end it with */ or remove it")
			}
			for j := i; j < end; j++ {
				if data[j] != '\n' && data[j] != '\r' {
					set(j, ' ')
				}
			}
			i = end - 1
			continue
		case isSpace(c):
			continue
		case (c == '}' || c == ']') && lastComma >= 0:
			set(lastComma, ' ')
		}
		lastComma = -1
		if c == ',' && prev != ',' && prev != '[' && prev != '{' {
			lastComma = i
		}
		prev = c
	}
	if out == nil {
		return data, nil
	}
	return out, nil
}

// commentAt gives the end of the comment starting at i, or -1.
func commentAt(data []byte, i int) int {
	if i+1 >= len(data) || data[i] != '/' {
		return -1
	}
	switch data[i+1] {
	case '/':
		for j := i; j < len(data); j++ {
			if data[j] == '\n' || data[j] == '\r' {
				return j
			}
		}
		return len(data)
	case '*':
		for j := i + 2; j+1 < len(data); j++ {
			if data[j] == '*' && data[j+1] == '/' {
				return j + 2
			}
		}
	}
	return -1
}

// tail reads what follows a container's last child on its own line,
// starting at its end e: a trailing comma (its offset, or -1) and the end
// of the last comment on that line (e when none), and whether one of
// those comments runs to the end of the line.
func (d *Doc) tail(e int) (comma, end int, lineComment bool) {
	comma, end = -1, e
	i := e
	for i < len(d.Data) {
		switch c := d.Data[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == ',' && comma < 0:
			comma = i
			i++
			end = i
		default:
			j := commentAt(d.Data, i)
			if j < 0 || (d.Data[i+1] == '*' && hasBreak(d.Data[i:j])) {
				return comma, end, lineComment
			}
			lineComment = d.Data[i+1] == '/'
			i, end = j, j
		}
	}
	return comma, end, lineComment
}

func hasBreak(b []byte) bool {
	for _, c := range b {
		if c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}

// commented says whether data[start:end] holds a comment.
func (d *Doc) commented(start, end int) bool {
	for i := start; i < end; i++ {
		if d.plain[i] != d.Data[i] {
			return true
		}
	}
	return false
}

// lastComment is the end of the last comment in data[start:end], or -1;
// start lies outside any comment. A // comment ends at its line's end,
// blanks included (they are the same bytes in the blanked copy); line
// tells that the last one is such a comment.
func (d *Doc) lastComment(start, end int) (last int, line bool) {
	last = -1
	for i := start; i < end; {
		if d.plain[i] == d.Data[i] {
			i++
			continue
		}
		j := commentAt(d.Data, i)
		if j < 0 {
			return last, line
		}
		last, line, i = j, d.Data[i+1] == '/', j
	}
	return last, line
}

// separator is the offset of the comma between children ending at start
// and starting at end (the blanked copy holds no comment to confuse it).
func (d *Doc) separator(start, end int) int {
	for i := start; i < end; i++ {
		if d.plain[i] == ',' {
			return i
		}
	}
	return -1
}

// removeCommented deletes child i of c when comments are near it: the
// child and one comma go, every comment stays, and removing the last
// child undoes what insert added.
func (d *Doc) removeCommented(c *Node, i int) []byte {
	n := c.count()
	end := c.childEnd(i)
	var comma int
	if i == n-1 {
		comma, _, _ = d.tail(end)
		if comma >= 0 {
			end = comma + 1 // its trailing comma goes with it
		}
	}
	switch {
	case i < n-1:
		// the child, its comma and the blanks after it, up to the next
		// comment or child
		k := d.separator(end, c.childStart(i+1)) + 1
		for k < len(d.Data) && isSpace(d.Data[k]) {
			k++
		}
		return d.splice(c.childStart(i), k, "")
	case n == 1:
		from := c.Start + 1
		if lc, _ := d.lastComment(from, c.childStart(i)); lc >= 0 {
			from = lc
		}
		return d.splice(from, end, "")
	}
	prev := c.childEnd(i - 1)
	sep := d.separator(prev, c.childStart(i))
	from := sep + 1
	if lc, _ := d.lastComment(from, c.childStart(i)); lc >= 0 {
		from = lc
	}
	if comma >= 0 { // the comma before it stays the one after its neighbour
		return d.splice(from, end, "")
	}
	out := d.splice(from, end, "")
	return append(out[:sep:sep], out[sep+1:]...)
}
