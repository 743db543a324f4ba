package toon_test

import (
	"fmt"

	"github.com/mcp-code-mode/mcp-code-mode/internal/toon"
)

func Example() {
	v, err := toon.DecodeJSON([]byte(`{"users":[{"id":1,"name":"Ada"},{"id":2,"name":"Bob"}],"tags":["a","b"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := toon.Marshal(v, toon.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output:
	// users[2]{id,name}:
	//   1,Ada
	//   2,Bob
	// tags[2]: a,b
}

// A program's structured result, without its empty fields, as the text a
// model reads. Paris's empty alerts are dropped, so the results no longer
// share their keys and are written as a list instead of a table.
func ExampleDropEmpty() {
	v, err := toon.DecodeJSON([]byte(`{
		"query": "weather",
		"error": "",
		"results": [
			{"city": "Paris", "temp": 21.5, "alerts": []},
			{"city": "Oslo", "temp": -3, "alerts": ["ice", "wind: 40 km/h"]}
		],
		"meta": {"next": "", "warnings": {}}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := toon.Marshal(toon.DropEmpty(v), toon.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output:
	// query: weather
	// results[2]:
	//   - city: Paris
	//     temp: 21.5
	//   - city: Oslo
	//     temp: -3
	//     alerts[2]: ice,"wind: 40 km/h"
}

func ExampleMarshal_options() {
	v := toon.Object{
		{Key: "server", Value: toon.Object{{Key: "tls", Value: toon.Object{{Key: "port", Value: 443}}}}},
		{Key: "rows", Value: []any{
			map[string]any{"a": "x,y", "b": 1},
			map[string]any{"a": "z", "b": 2},
		}},
	}
	out, err := toon.Marshal(v, toon.Options{Delimiter: '|', Indent: 4, KeyFolding: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output:
	// server.tls.port: 443
	// rows[2|]{a|b}:
	//     x,y|1
	//     z|2
}
