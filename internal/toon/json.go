package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DecodeJSON decodes one JSON value, keeping what [Marshal] needs that
// encoding/json's any loses: objects become [Object] with their keys in
// document order, and numbers json.Number with their digits. Arrays are
// []any, strings, booleans and null as encoding/json decodes them. A key
// given twice keeps its first position and its last value. Nesting deeper
// than [MaxDepth] is an error, and so is anything but white space after the
// value.
func DecodeJSON(data []byte) (any, error) {
	v, err := decodeJSON(data, 0)
	if err != nil {
		return nil, fmt.Errorf("toon: decode JSON: %w", err)
	}
	return v, nil
}

// decodeJSON decodes a JSON document found at depth (0 for a document of
// its own).
func decodeJSON(data []byte, depth int) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, depth)
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("unexpected end of input")
		}
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the value at offset %d", dec.InputOffset())
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool or nil
	}
	if depth >= MaxDepth {
		return nil, fmt.Errorf("nested more than %d levels deep at offset %d", MaxDepth, dec.InputOffset())
	}
	switch d {
	case '{':
		var b objectBuilder
		b.obj = Object{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			key, ok := tok.(string)
			if !ok {
				return nil, fmt.Errorf("object key %v is not a string at offset %d", tok, dec.InputOffset())
			}
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			b.set(key, v)
		}
		if _, err := dec.Token(); err != nil { // '}'
			return nil, err
		}
		return b.obj, nil
	default: // '[': the decoder reports a stray ']' or '}' as a syntax error
		arr := []any{}
		for dec.More() {
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := dec.Token(); err != nil { // ']'
			return nil, err
		}
		return arr, nil
	}
}
