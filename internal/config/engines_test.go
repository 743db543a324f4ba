package config

import (
	"slices"
	"strings"
	"testing"
)

// engines takes unix://, tcp:// and ssh:// addresses, checked without
// connecting; a bad one, or one listed twice, stops every command with its
// place in the list.
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
	if cfg, err := Load("", nil); err != nil || cfg.Engines != nil {
		t.Fatalf("default engines = %q, %v; want none (DOCKER_HOST's or the default socket)", cfg.Engines, err)
	}
	for _, tt := range []struct{ content, want string }{
		{`engines = ["/var/run/docker.sock"]`, "engines[0]"},
		{`engines = ["unix:///a.sock", "http://host:2375"]`, `engines[1]: engine "http://host:2375": unknown scheme`},
		{`engines = ["ssh://-oProxyCommand=x"]`, "may not begin with '-'"},
		{`engines = ["ssh://me:pw@host"]`, "password"},
		{`engines = ["unix:///a.sock", "unix:///a.sock"]`, "listed twice"},
		{`engine = ["unix:///a.sock"]`, "did you mean engines?"},
	} {
		_, err := Load(writeConfig(t, "c.toml", tt.content+"\n"), nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Load = %v, want an error saying %q", tt.content, err, tt.want)
		}
	}
}
