package planmemo

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/agentkit/charter/core/fsys"
)

// splitParse is parse as it was, with a copied string per line and
// strings.SplitN: what parse must still read every memo as.
func splitParse(data []byte, key string) (taken int64, entries []entry, report []byte, ok bool) {
	line := func() (string, bool) {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return "", false
		}
		l := string(data[:i])
		data = data[i+1:]
		return l, true
	}
	k, ok1 := line()
	t, ok2 := line()
	n, ok3 := line()
	if !ok1 || !ok2 || !ok3 || k != key {
		return 0, nil, nil, false
	}
	taken, err1 := strconv.ParseInt(t, 10, 64)
	count, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil || count < 0 || count > len(data) {
		return 0, nil, nil, false
	}
	entries = make([]entry, count)
	for i := range entries {
		l, ok := line()
		f := strings.SplitN(l, " ", 8)
		if !ok || len(f) != 8 || f[7] == "" {
			return 0, nil, nil, false
		}
		var v [6]int64
		for j := range v {
			x, err := strconv.ParseInt(f[j], 10, 64)
			if err != nil {
				return 0, nil, nil, false
			}
			v[j] = x
		}
		sum := f[6]
		if sum == "-" {
			sum = ""
		} else if len(sum) != 64 && sum != kindSum && !strings.HasPrefix(sum, namesPrefix) {
			return 0, nil, nil, false
		}
		entries[i] = entry{path: f[7], sum: sum, st: fsys.Stamp{Dev: uint64(v[0]), Ino: uint64(v[1]), Size: v[2], Mode: uint32(v[3]), Mtime: v[4], Ctime: v[5]}}
	}
	l, ok := line()
	size, err := strconv.Atoi(l)
	if !ok || err != nil || size != len(data) {
		return 0, nil, nil, false
	}
	return taken, entries, data, true
}

func memoSeeds() []string {
	sum := strings.Repeat("ab", 32)
	return []string{
		"k\n17\n2\n1 2 3 4 5 6 " + sum + " /p/a b\n0 0 0 0 0 0 - /p/c\n2\n{}",
		"k\n17\n1\n1 2 3 4 5 6 " + kindSum + " /p\n0\n",
		"k\n17\n1\n1 2 3 4 5 6 " + sum + " \n0\n",
		"k\n17\n1\n1  2 3 4 5 6 " + sum + " /p\n0\n",
		"k\n17\n1\n1 2 3 4 5 x " + sum + " /p\n0\n",
		"k\n17\n1\n1 2 3 4 5 6 short /p\n0\n",
		"k\n17\n3\n1 2 3 4 5 6 - /p\n0\n",
		"k\n17\n0\n5\nabc",
		"other\n17\n0\n0\n",
		"",
	}
}

// parse reads every memo as splitParse did: the same entries, the same
// report, the same refusals.
func TestParseAsSplit(t *testing.T) {
	for _, s := range memoSeeds() {
		checkParse(t, []byte(s))
	}
}

func FuzzParseAsSplit(f *testing.F) {
	for _, s := range memoSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(checkParse)
}

func checkParse(t *testing.T, data []byte) {
	t1, e1, r1, ok1 := parse(bytes.Clone(data), "k")
	t2, e2, r2, ok2 := splitParse(bytes.Clone(data), "k")
	if ok1 != ok2 || ok1 && (t1 != t2 || !reflect.DeepEqual(e1, e2) || !bytes.Equal(r1, r2)) {
		t.Fatalf("%q: parse %v %d %v %q, splitParse %v %d %v %q", data, ok1, t1, e1, r1, ok2, t2, e2, r2)
	}
}
