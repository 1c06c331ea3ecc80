// Package shell quotes words for a POSIX shell, so that a command charter
// prints, or writes into an agent's configuration, reads back as the same
// words:
//
//	shell.Quote("/opt/my tools/charter") // '/opt/my tools/charter'
//	shell.Join([]string{"charter", "--config-root", "C:/x"}) // charter --config-root C:/x
//
// A word made only of letters, digits and -_./:=,@%+ stays as it is, since
// no POSIX shell gives those a meaning inside a word; every other word is
// single-quoted, a quote inside it written as '\”. The one exception is a
// word shaped like an assignment (NAME=value): in a command's first place
// the shell would take it for one, so it is quoted wherever it stands.
package shell
