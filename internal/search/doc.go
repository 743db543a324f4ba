// Package search ranks MCP tools for a query in the model's own words, so a
// program can find a tool without every schema in its context.
//
//	ix := search.NewIndex([]search.ToolEntry{
//		{Server: "github", Tool: "create_issue", Description: "Create a new issue"},
//		{Server: "slack", Tool: "post_message", Description: "Post a message to a channel"},
//	})
//	for _, h := range ix.Search("open a bug report", 3) {
//		fmt.Println(h.Index, h.Score)
//	}
//
// The ranking is BM25F over a tool's name, description and parameter names
// and descriptions, with Snowball stemming, identifier splitting
// (createIssue, create_issue), typo tolerance, and related words: a lexicon
// derived from WordNet 3.0 (lexicon.txt.gz, written by internal/genlexicon
// from the dictionary alone, so a server nobody has seen is covered too:
// synonyms, hypernyms, definitions, multi-word expressions such as "call
// off") and a hand-kept table of related words and idioms (related.txt,
// idioms.txt): domain terms, the everyday, modern and abbreviated words
// people use for them, the situations and purposes that imply an operation,
// and verbs split around their object ("bring * back", an idiom with a
// slot). Each tool also holds the words related to its own, so plain words
// meet jargon, and the words of the idioms whose replacement names it, so a
// query that says an idiom's words otherwise still meets the tool. Of
// sibling tools (add and remove, mute and unmute, geocode and reverse
// geocode) the query's direction picks one, and of a tool for one thing
// and its sibling for several, a query about one thing the first; two
// words side by side in the query count more in a tool that says them
// close together; a question weighs the tools that change things less, a
// request the tools that only read, a tool named for the verb a request
// starts with gains, and the text a query quotes (between quotes, or after
// the colon of a short request to write: "file a bug: the button does
// nothing") is not read as a request and counts less.
// Values in the query (a file name, an IP address, a date, two units, an
// SQL statement, a cron expression) add the words for their kind. Server
// names weigh by how distinctive they are, and only the query's own words
// name one, not the words an idiom rewrites it to. Nothing is downloaded
// and no model runs: over the 1,137 tools of the search benchmark's two
// sets a query takes well under 5 ms (BenchmarkSearch1000).
package search
