package discovery

// Files in the common "mcpServers" format, with no fields or variables of
// a client's own.
var (
	// LM Studio follows Cursor's notation; no expansion is documented.
	dialectLMStudio = &dialect{typeKeys: []string{"type"}}
	// Continue and mcp-dir files as other clients write them.
	dialectPlain = &dialect{typeKeys: []string{"type"}}
)

// decodeMCPDir reads one file of an MCP server directory:
// {"mcpServers": {name: entry}} or a bare object of name -> entry.
func decodeMCPDir(r *reader, f *file) {
	if m := f.root.get("mcpServers"); m != nil {
		r.serverMap(f, m, "mcpServers", dialectPlain, nil)
		return
	}
	m := f.root
	m.members(func(name string, v *cfgValue) {
		if raw, ok := r.entry(f, dialectPlain, name, name, v); ok {
			r.finish(f, dialectPlain, raw)
		}
	})
}
