package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"
)

func TestErrorCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"no code", errors.New("x"), CodeInternal},
		{"nil", nil, CodeInternal},
		{"an Error", Errorf(CodeNotSupported, "x"), CodeNotSupported},
		{"an Error without a kind", &Error{Msg: "x"}, CodeInternal},
		{"a usage error", Errorf(CodeUsage, "x"), CodeUsage},
		{"a precise usage error", &Error{Kind: CodeUnknownID, Msg: "x"}, CodeUnknownID},
		{"wrapped", fmt.Errorf("ctx: %w", &SharedWriteError{}), CodeSharedWrite},
		{"joined", errors.Join(errors.New("a"), ErrNoHome), CodeNoHome},
		{"the outer code wins", Errorf(CodeCancelled, "c: %w", &SharedWriteError{}), CodeCancelled},
	}
	for _, tt := range tests {
		if got := ErrorCode(tt.err); got != tt.want {
			t.Errorf("%s: ErrorCode = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestErrorfKeepsTheCause(t *testing.T) {
	err := Errorf(CodeInvalidJSON, "read the body: %w", fs.ErrClosed)
	if !errors.Is(err, fs.ErrClosed) || err.Error() != "read the body: file already closed" {
		t.Errorf("got %v (cause %v)", err, err.Err)
	}
	if Errorf(CodeUsage, "plain %d", 1).Err != nil {
		t.Error("an Errorf without %w has a cause")
	}
}

func TestErrorExtras(t *testing.T) {
	se := &SharedWriteError{Target: "/t", SharedPath: "/l"}
	x := ErrorExtras(fmt.Errorf("apply: %w", se))
	if x["sharedPath"] != "/l" || x["hint"] != CompanionShareOffCommand || !slices.Equal(x["choices"].([]string), []string{ChoiceWriteShared, ChoiceCancel}) {
		t.Errorf("extras %v", x)
	}
	if x := ErrorExtras(Errorf(CodeCancelled, "cancelled: %w", se)); x["sharedPath"] != "/l" {
		t.Errorf("a coded wrapper hides its cause's extras: %v", x)
	}
	if ErrorExtras(errors.New("x")) != nil {
		t.Error("an error without extras has some")
	}
	// Each call hands out its own choices: no caller can change them for the next.
	SharedWriteChoices()[0] = "Overwrite"
	if SharedWriteChoices()[0] != ChoiceWriteShared {
		t.Error("the choices can be changed from outside")
	}
}

// The one error document: code and message with the extras beside them,
// the skin's message rather than err's own, and HTML escaped only where
// the encoder around it asks for that.
func TestErrorBody(t *testing.T) {
	err := fmt.Errorf("write: %w", &SharedWriteError{Target: "/t", SharedPath: "/l"})
	body := NewErrorBody(err, "a <b> & c")
	if body.Code != CodeSharedWrite || body.Message != "a <b> & c" || body.Extras["sharedPath"] != "/l" {
		t.Fatalf("body %+v", body)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body.Document()); err != nil {
		t.Fatal(err)
	}
	want := `{"error":{"choices":["Write (affects all profiles)","Cancel"],"code":"shared_write","hint":"` + CompanionShareOffCommand + `","hintEffect":"` + ShareOffHint() + `","message":"a <b> & c","sharedKind":"dir","sharedPath":"/l"}}` + "\n"
	if buf.String() != want {
		t.Errorf("document\n%s want\n%s", buf.String(), want)
	}
	escaped, _ := json.Marshal(body.Document())
	if !bytes.Contains(escaped, []byte(`"a \u003cb\u003e \u0026 c"`)) {
		t.Errorf("json.Marshal does not escape the body: %s", escaped)
	}
	var back ErrorBody
	if json.Unmarshal(escaped, &struct{ Error *ErrorBody }{&back}) != nil || back.Code != CodeSharedWrite || back.Message != body.Message {
		t.Errorf("read back %+v", back)
	}
	// An uncoded error is internal, with no extras.
	if b := NewErrorBody(errors.New("x"), "x"); b.Code != CodeInternal || b.Extras != nil {
		t.Errorf("uncoded body %+v", b)
	}
}
