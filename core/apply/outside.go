package apply

import (
	"bytes"
)

// Outside splits an instruction file at charter's managed block: the text
// before and after it, and whether there is one (without, before is all
// of data). Retiring a peer tool edits only this text.
func Outside(path string, data []byte) (before, block, after []byte, found bool, err error) {
	sc, err := scanBlock(path, bytes.NewReader(data), nil)
	if err != nil || !sc.found {
		return data, nil, nil, false, err
	}
	return data[:sc.blk.start], data[sc.blk.start:sc.blk.end], data[sc.blk.end:], true, nil
}

// Uninstalled is data as `charter uninstall` leaves it: charter's block
// taken out; nil when nothing else was in the file (it goes).
func Uninstalled(path string, data []byte) ([]byte, error) {
	parts, err := withoutBlock(path, data, false)
	if err != nil || parts == nil {
		return nil, err
	}
	return bytes.Join(parts, nil), nil
}
