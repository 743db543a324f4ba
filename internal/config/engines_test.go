package config

import (
	"slices"
	"strings"
	"testing"
)

// engines takes unix://, tcp:// and ssh:// addresses, checked without
// connecting, a trailing slash dropped; a bad one, or one listed twice
// (with or without the slash), stops every command with the file or
// variable and its place in the list.
func TestLoadEngines(t *testing.T) {
	want := []string{"unix:///var/run/docker.sock", "tcp://10.0.0.2:2376", "ssh://me@build-2:2222"}
	cfg, err := Load(writeConfig(t, "c.toml", `engines = ["unix:///var/run/docker.sock", "tcp://10.0.0.2:2376", "ssh://me@build-2:2222"]`+"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cfg.Engines, want) {
		t.Fatalf("engines = %q, want %q", cfg.Engines, want)
	}
	cfg, err = Load("", []string{"MCP_CODE_MODE_ENGINES=unix:///var/run/docker.sock,tcp://10.0.0.2:2376, ssh://me@build-2:2222"})
	if err != nil || !slices.Equal(cfg.Engines, want) {
		t.Fatalf("MCP_CODE_MODE_ENGINES gives %q, %v; want %q", cfg.Engines, err, want)
	}
	cfg, err = Load(writeConfig(t, "c.toml", `engines = ["unix:///var/run/docker.sock/", "tcp://10.0.0.2:2376/", "ssh://me@build-2:2222/"]`+"\n"), nil)
	if err != nil || !slices.Equal(cfg.Engines, want) {
		t.Fatalf("engines with trailing slashes give %q, %v; want %q (the slash dropped)", cfg.Engines, err, want)
	}
	_, err = Load("", []string{"MCP_CODE_MODE_ENGINES=tcp://10.0.0.2:2376,tcp://10.0.0.2:2376/"})
	if err == nil || !strings.Contains(err.Error(), `MCP_CODE_MODE_ENGINES: engines[1]: "tcp://10.0.0.2:2376/" is listed twice`) {
		t.Fatalf("a duplicate in MCP_CODE_MODE_ENGINES gives %v, want an error naming the variable and the place", err)
	}
	if cfg, err := Load("", nil); err != nil || cfg.Engines != nil {
		t.Fatalf("default engines = %q, %v; want none (DOCKER_HOST's or the default socket)", cfg.Engines, err)
	}
	for _, tt := range []struct{ content, want string }{
		{`engines = ["/var/run/docker.sock"]`, "engines[0]"},
		{`engines = ["unix:///a.sock", "http://host:2375"]`, `engines[1]: engine "http://host:2375": unknown scheme`},
		{`engines = ["ssh://-oProxyCommand=x"]`, "may not begin with '-'"},
		{`engines = ["ssh://me:pw@host"]`, "password"},
		{`engines = ["unix:///a.sock", "unix:///a.sock"]`, `c.toml: engines[1]: "unix:///a.sock" is listed twice (engines[0] too)`},
		{`engines = ["tcp://10.0.0.2:2376", "unix:///a.sock/", "unix:///a.sock"]`, `c.toml: engines[2]: "unix:///a.sock" is listed twice (engines[1] is "unix:///a.sock/": a trailing slash makes no other engine)`},
		{`engines = ["ssh://me@build-2", "ssh://me@build-2/"]`, `engines[1]: "ssh://me@build-2/" is listed twice (engines[0] is "ssh://me@build-2"`},
		{`engine = ["unix:///a.sock"]`, "did you mean engines?"},
	} {
		_, err := Load(writeConfig(t, "c.toml", tt.content+"\n"), nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Load = %v, want an error saying %q", tt.content, err, tt.want)
		}
	}
}
