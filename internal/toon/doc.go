// Package toon encodes JSON-shaped values as TOON (Token-Oriented Object
// Notation, specification version 3.3): an indentation-based text form of
// the JSON data model that states each array's length, writes arrays of
// uniform objects as tables under one field list, and quotes strings only
// where they could be misread.
//
//	v, err := toon.DecodeJSON([]byte(`{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}],"tags":["a","b"]}`))
//	if err != nil { ... }
//	out, err := toon.Marshal(v, toon.Options{})
//
// gives
//
//	users[2]{id,name}:
//	  1,Ada
//	  2,Bob
//	tags[2]: a,b
//
// # Values
//
// [Marshal] takes the values encoding/json decodes into an any (map[string]any,
// []any, string, float64 or json.Number, bool, nil) and [Object], an ordered
// object: TOON keeps an object's key order, which a Go map does not have, so
// [DecodeJSON] decodes JSON into Objects (and numbers into json.Number, so
// that no digit is lost). A map[string]any is written with its keys sorted,
// as encoding/json writes it. Go integer and float types, json.RawMessage
// and anything else encoding/json can marshal are accepted too (the last
// through json.Marshal, so struct fields keep their declared order).
//
// The mapping to the JSON data model (the specification's §3 asks that it
// be documented):
//   - float64 and float32: finite numbers in canonical decimal form (no
//     exponent, no trailing zeros, -0 as 0) between 1e-6 and 1e21 in
//     magnitude, outside that in JSON exponent form with a lowercase e and
//     a signed exponent (1e+21, 5e-7); NaN and ±Inf become null.
//   - json.Number: the same forms, computed from its decimal digits, so no
//     precision is lost (an integer above 2^53 keeps every digit); an
//     exponent of more than 15 digits is an error.
//   - strings: invalid UTF-8 bytes become U+FFFD, as encoding/json does.
//   - an [Object] with a key twice keeps the key where it first appears,
//     with the last value, as JavaScript's JSON.parse does.
//
// # Output
//
// The output is UTF-8 with LF line ends, no trailing spaces and no final
// newline; an empty object at the root is an empty document. Beyond the
// quoting §7.2 requires, strings that start with "#", with a byte-order mark
// or with "+" followed by a number, and strings with leading or trailing
// Unicode white space, are quoted too: newer TOON readers take a line
// starting with "#" as a comment, some drop a leading byte-order mark, and
// some trim all white space. The specification allows quoting any string.
//
// Deep nesting costs Indent spaces per level on every line, so TOON can be
// much longer than compact JSON for deeply nested data; values nested more
// than 256 levels deep are refused with an error, as are cycles.
//
// [DropEmpty] removes empty strings, lists and objects from objects before
// encoding, for output meant to be read rather than decoded.
package toon
