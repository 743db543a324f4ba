package stubs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// object is a decoded JSON object that remembers the order of its keys, so
// that parameters come out in the order the server wrote them.
type object struct {
	keys []string
	vals map[string]any
}

// get returns the value of key k, or nil and false if o has no such key.
func (o *object) get(k string) (any, bool) {
	v, ok := o.vals[k]
	return v, ok
}

// str returns the value of key k if it is a string.
func (o *object) str(k string) (string, bool) {
	s, ok := o.vals[k].(string)
	return s, ok
}

// obj returns the value of key k if it is an object.
func (o *object) obj(k string) (*object, bool) {
	v, ok := o.vals[k].(*object)
	return v, ok
}

// arr returns the value of key k if it is an array.
func (o *object) arr(k string) ([]any, bool) {
	v, ok := o.vals[k].([]any)
	return v, ok
}

// decodeJSON decodes data, which must hold exactly one valid JSON value, into
// nil, bool, json.Number, string, []any or *object values.
func decodeJSON(data []byte) (any, error) {
	if !json.Valid(data) {
		// Let encoding/json explain what is wrong (and where).
		if err := json.Unmarshal(data, new(json.RawMessage)); err != nil {
			return nil, err
		}
		return nil, errors.New("invalid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("invalid JSON: data after the top-level value")
	}
	return v, nil
}

// decodeValue decodes the next value of dec. json.Valid has bounded the
// nesting depth of the input, and so the depth of the recursion.
func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &object{vals: make(map[string]any)}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, ok := kt.(string)
			if !ok {
				return nil, fmt.Errorf("invalid JSON: object key is %v", kt)
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			if _, dup := o.vals[k]; !dup {
				o.keys = append(o.keys, k)
			}
			o.vals[k] = v // The last duplicate wins, as in encoding/json.
		}
		if _, err := dec.Token(); err != nil { // '}'
			return nil, err
		}
		return o, nil
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		if _, err := dec.Token(); err != nil { // ']'
			return nil, err
		}
		return a, nil
	}
	return tok, nil
}

// appendJSON appends the compact JSON encoding of v (a value made by
// decodeJSON) to b, keeping the key order of objects.
func appendJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case json.Number:
		return append(b, v...)
	case string:
		return appendJSONString(b, v)
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case *object:
		b = append(b, '{')
		for i, k := range v.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			b = appendJSON(b, v.vals[k])
		}
		return append(b, '}')
	}
	panic(fmt.Sprintf("stubs: unexpected JSON value of type %T", v))
}

// appendJSONString appends s as a JSON string. Unlike encoding/json it does
// not escape <, > and &, which keeps defaults readable in docstrings.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

// jsonKind names the kind of a decoded JSON value, for error messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}
