package aggregator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mcp-code-mode/mcp-code-mode/internal/audit"
	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/redact"
	"github.com/mcp-code-mode/mcp-code-mode/internal/upstream"
)

// Refusal is a message of the bridge's own about a call: it reaches the
// program as ToolError. Every other error reaches it only as a type name.
type Refusal struct {
	Msg string
	// What the audit log records of the call, when it is not "refused"
	// with Msg as the reason (Msg may quote an argument's value or a
	// server's text): see refuseAs.
	outcome, reason string
}

func (r *Refusal) Error() string { return r.Msg }

func refuse(format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...)}
}

// refuseAs is refuse for a call the audit log records with another outcome
// than audit.Refused (the server saw the call), or with reason instead of
// the message, which may quote what it must not ("" keeps the message).
func refuseAs(outcome, reason, format string, args ...any) error {
	return &Refusal{Msg: fmt.Sprintf(format, args...), outcome: outcome, reason: reason}
}

// hostFault is a failure on the host side whose text must not reach the
// program: only its kind does.
type hostFault struct {
	kind string // a type name such as ServerError
	err  error
}

func (f *hostFault) Error() string { return f.kind + ": " + f.err.Error() }
func (f *hostFault) Unwrap() error { return f.err }

// forCode turns an error into the text the program may see: a refusal's own
// message with the secrets red knows replaced (before it is capped, so no
// part of one is left), or only the fault's type name.
func forCode(err error, maxChars int, red *redact.Replacer) string {
	var r *Refusal
	if errors.As(err, &r) {
		return truncateRunes(red.String(r.Msg), maxChars)
	}
	var f *hostFault
	if errors.As(err, &f) {
		return truncateRunes("host error: "+f.kind, maxChars)
	}
	return truncateRunes("host error: "+reflect.TypeOf(err).String(), maxChars)
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// checkedTool is a tool with what the bridge needs to check calls of it.
type checkedTool struct {
	upstream.Tool
	schema      *jsonschema.Schema // nil when schemaErr is set
	schemaErr   error
	names       map[string]bool // argument names the schema lists
	allowsExtra bool            // the schema allows names it does not list
}

// newCheckedTool compiles the tool's input schema. External references
// (file or remote) are never loaded.
func newCheckedTool(server string, t upstream.Tool) *checkedTool {
	ct := &checkedTool{Tool: t}
	raw := t.InputSchema
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		ct.schemaErr = fmt.Errorf("input schema of %s.%s: %w", server, t.Name, err)
		return ct
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(jsonschema.SchemeURLLoader{}) // refuses every external $ref
	url := "mem://mcp-code-mode/" + pathEscape(server) + "/" + pathEscape(t.Name) + ".json"
	if err := c.AddResource(url, doc); err != nil {
		ct.schemaErr = fmt.Errorf("input schema of %s.%s: %w", server, t.Name, err)
		return ct
	}
	if ct.schema, err = c.Compile(url); err != nil {
		ct.schemaErr = fmt.Errorf("input schema of %s.%s: %w", server, t.Name, err)
	}
	ct.names, ct.allowsExtra = listedNames(doc)
	return ct
}

func pathEscape(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '#' || r == '?' || r == '%' || r == ' ' {
			return '_'
		}
		return r
	}, s)
}

// listedNames collects the property names a schema lists at the top level
// (and in its top-level allOf/anyOf/oneOf branches), and whether it allows
// others: only when it says so, with additionalProperties other than false,
// or patternProperties.
func listedNames(doc any) (map[string]bool, bool) {
	names := map[string]bool{}
	extra := false
	var visit func(v any, depth int)
	visit = func(v any, depth int) {
		m, ok := v.(map[string]any)
		if !ok || depth > 4 {
			return
		}
		if ref, ok := m["$ref"].(string); ok {
			if target, ok := localRef(doc, ref); ok {
				visit(target, depth+1)
			} else {
				extra = true // cannot tell what it lists; the schema still validates
			}
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for k := range props {
				names[k] = true
			}
		}
		if ap, ok := m["additionalProperties"]; ok && ap != false {
			extra = true
		}
		if _, ok := m["patternProperties"]; ok {
			extra = true
		}
		for _, key := range []string{"allOf", "anyOf", "oneOf"} {
			if list, ok := m[key].([]any); ok {
				for _, sub := range list {
					visit(sub, depth+1)
				}
			}
		}
	}
	visit(doc, 0)
	return names, extra
}

// localRef resolves a "#/a/b" reference inside doc.
func localRef(doc any, ref string) (any, bool) {
	if ref == "#" {
		return doc, true
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	cur := doc
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[tok]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// maxExponent bounds the exponent of numbers in arguments: validating
// 1e999999 against a schema costs milliseconds of big-number arithmetic.
const maxExponent = 400

// saneNumbers reports whether every number in v has a modest exponent.
func saneNumbers(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if !saneNumbers(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !saneNumbers(e) {
				return false
			}
		}
	case json.Number:
		s := string(x)
		if i := strings.IndexAny(s, "eE"); i >= 0 {
			exp, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
			return err == nil && exp >= -maxExponent && exp <= maxExponent
		}
		return len(s) <= 2*maxExponent
	}
	return true
}

// checkArgs validates one call's arguments: a JSON object within the size
// limit that the tool's schema accepts and that names nothing the schema
// does not list (unless the schema allows that). It returns the arguments
// re-encoded from what it checked, so that what the server parses is what
// was validated (a duplicated key cannot mean one thing here and another
// there).
func (t *checkedTool) checkArgs(server string, args json.RawMessage, maxBytes int) (json.RawMessage, error) {
	if len(args) > maxBytes {
		return nil, refuse("arguments of %s.%s are %d bytes, over the %d-byte limit", server, t.Name, len(args), maxBytes)
	}
	if t.schemaErr != nil {
		return nil, refuse("%s.%s cannot be called: its input schema does not compile", server, t.Name)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return nil, refuse("arguments of %s.%s are not JSON", server, t.Name)
	}
	obj, ok := inst.(map[string]any)
	if !ok {
		return nil, refuse("arguments of %s.%s must be an object (keyword arguments or one dict)", server, t.Name)
	}
	if !saneNumbers(inst) {
		return nil, refuse("arguments of %s.%s hold a number with an exponent beyond ±%d", server, t.Name, maxExponent)
	}
	if !t.allowsExtra {
		var unknown []string
		for k := range obj {
			if !t.names[k] {
				unknown = append(unknown, fmt.Sprintf("%q", k))
			}
		}
		if len(unknown) > 0 {
			return nil, refuseAs(audit.Refused, fmt.Sprintf("%s.%s was given %s its schema does not list", server, t.Name, plural(len(unknown), "argument")),
				"%s.%s does not take %s", server, t.Name, strings.Join(slices.Sorted(slices.Values(unknown)), ", "))
		}
	}
	if err := t.schema.Validate(inst); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			// The schema's complaint may quote the value ("must be <= 10 but
			// found 12"): the audit log gets only that it did not match.
			return nil, refuseAs(audit.Refused, fmt.Sprintf("arguments of %s.%s do not match its schema", server, t.Name),
				"arguments of %s.%s do not match its schema: %s", server, t.Name, schemaErrorText(ve))
		}
		return nil, refuse("arguments of %s.%s do not match its schema", server, t.Name)
	}
	canonical, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("re-encode arguments: %w", err)
	}
	return canonical, nil
}

// plural is "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// schemaErrorText is a short, stable, one-line account of the failures: the
// leaves of the error tree (an error under a $ref keeps its own message).
func schemaErrorText(ve *jsonschema.ValidationError) string {
	p := message.NewPrinter(language.English)
	var parts []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			parts = append(parts, "/"+strings.Join(e.InstanceLocation, "/")+": "+e.ErrorKind.LocalizedString(p))
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	parts = slices.Compact(slices.Sorted(slices.Values(parts)))
	if len(parts) > 3 {
		parts = append(parts[:3], fmt.Sprintf("and %d more", len(parts)-3))
	}
	return strings.Join(parts, "; ")
}

// budget counts the calls of one run.
type budget struct {
	max  int
	used atomic.Int64
}

// take reserves one call, or refuses when the run has none left.
func (b *budget) take() error {
	if n := b.used.Add(1); n > int64(b.max) {
		b.used.Add(-1)
		return refuse("this run has used all %d tool calls it may make", b.max)
	}
	return nil
}

// resultValue turns a tool result into what the program gets: the structured
// content when there is one, else the text. A tool error becomes a refusal
// carrying the tool's own text.
func resultValue(server, tool string, res *mcp.CallToolResult, maxBytes int) (json.RawMessage, error) {
	if res == nil {
		return nil, refuseAs(audit.Error, "", "%s.%s returned no result", server, tool)
	}
	var texts []string
	for _, c := range res.Content {
		switch v := c.(type) {
		case mcp.TextContent:
			texts = append(texts, v.Text)
		case mcp.ImageContent:
			texts = append(texts, fmt.Sprintf("[image %s, %d bytes of base64]", v.MIMEType, len(v.Data)))
		case mcp.AudioContent:
			texts = append(texts, fmt.Sprintf("[audio %s, %d bytes of base64]", v.MIMEType, len(v.Data)))
		case mcp.ResourceLink:
			texts = append(texts, fmt.Sprintf("[resource %s]", v.URI))
		case mcp.EmbeddedResource:
			if tr, ok := v.Resource.(mcp.TextResourceContents); ok {
				texts = append(texts, tr.Text)
			} else {
				texts = append(texts, "[embedded resource]")
			}
		}
	}
	text := strings.Join(texts, "\n")
	if res.IsError {
		if text == "" {
			text = "no message"
		}
		// The tool's text may quote its arguments: the audit log gets only
		// that it failed.
		return nil, refuseAs(audit.Error, "the tool answered with an error (isError)", "%s.%s failed: %s", server, tool, text)
	}
	var value json.RawMessage
	if len(res.RawStructuredContent) > 0 && string(res.RawStructuredContent) != "null" {
		value = res.RawStructuredContent
	} else if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, fmt.Errorf("encode structured result: %w", err)
		}
		value = b
	} else {
		b, err := json.Marshal(text)
		if err != nil {
			return nil, fmt.Errorf("encode text result: %w", err)
		}
		value = b
	}
	if len(value) > maxBytes {
		return nil, refuseAs(audit.Error, "", "the result of %s.%s is %d bytes, over the %d-byte limit; ask for less", server, tool, len(value), maxBytes)
	}
	return value, nil
}

// callDeadline is how long one call may take: the program's own timeout=
// for it (ms, 0 if none), capped by limits.max_call_timeout, else
// limits.call_timeout; and how to name that deadline in a message.
func callDeadline(limits config.Limits, ms int64) (time.Duration, string) {
	if ms <= 0 {
		return limits.CallTimeout, fmt.Sprintf("%v (limits.call_timeout)", limits.CallTimeout)
	}
	asked := time.Duration(ms) * time.Millisecond
	if asked > limits.MaxCallTimeout {
		return limits.MaxCallTimeout, fmt.Sprintf("%v (its timeout=%v, capped by limits.max_call_timeout)", limits.MaxCallTimeout, asked)
	}
	return asked, fmt.Sprintf("%v (its timeout=)", asked)
}

// callError turns a failed forward into what the program may learn. ctx is
// the run's context, call the call's (ctx with the call's deadline, which
// deadline names).
func callError(ctx, call context.Context, server, tool, deadline string, err error) error {
	switch {
	case ctx.Err() == nil && (errors.Is(err, context.DeadlineExceeded) || atOwnDeadline(ctx, call)):
		return refuseAs(audit.Timeout, "", "%s.%s timed out after %s", server, tool, deadline)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return refuseAs(audit.Cancelled, "", "%s.%s was cancelled: the run ended", server, tool)
	}
	if errors.Is(err, mcp.ErrInvalidParams) {
		return refuseAs(audit.Error, "", "%s.%s failed: the server rejected the request as invalid", server, tool)
	}
	var te *transport.Error
	if errors.As(err, &te) || errors.Is(err, transport.ErrTransportClosed) {
		return &hostFault{kind: "TransportError", err: err}
	}
	return &hostFault{kind: "ServerError", err: err}
}

// atOwnDeadline reports whether a call failed at its own deadline rather
// than the run's, whatever error the transport made of it (mcp-go's SSE
// client reports a timer of its own, set to the deadline, a moment before
// the context expires).
func atOwnDeadline(run, call context.Context) bool {
	dl, ok := call.Deadline()
	if !ok || time.Until(dl) > 50*time.Millisecond {
		return false
	}
	rdl, ok := run.Deadline()
	return !ok || rdl.After(dl)
}
