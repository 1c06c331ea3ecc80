//go:build tools

package charter
import (
 _ "github.com/alecthomas/kong"
 _ "github.com/spf13/afero"
 _ "github.com/shopspring/decimal"
 _ "github.com/mitchellh/copystructure"
 _ "github.com/rogpeppe/go-internal/testscript"
 _ "go.yaml.in/yaml/v3"
 _ "github.com/gofrs/flock"
 _ "golang.org/x/term"
 _ "github.com/chromedp/chromedp"
)
