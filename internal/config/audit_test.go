package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// The [audit] keys: their defaults, from the file and from the environment;
// a misspelled one or a value the log cannot use stops Load with the key.
func TestLoadAuditConfig(t *testing.T) {
	cfg, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Audit != (AuditConfig{MaxBytes: 10 << 20, Keep: 5}) {
		t.Errorf("defaults %+v", cfg.Audit)
	}
	t.Setenv("XDG_STATE_HOME", "/state")
	if dir, err := cfg.Audit.AuditDir(); err != nil || dir != filepath.Join("/state", "mcp-code-mode", "audit") {
		t.Errorf("AuditDir = %q, %v", dir, err)
	}
	p := writeConfig(t, "c.toml", "[audit]\ndir = \"/var/log/mcm\"\nmax_bytes = 65536\nkeep = 0\narguments = true\n")
	cfg, err = Load(p, []string{"MCP_CODE_MODE_AUDIT__KEEP=9"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Audit != (AuditConfig{Dir: "/var/log/mcm", MaxBytes: 65536, Keep: 0, Arguments: true}) {
		t.Errorf("from the file: %+v", cfg.Audit)
	}
	if cfg, err = Load("", []string{"MCP_CODE_MODE_AUDIT__ARGUMENTS=true", "MCP_CODE_MODE_AUDIT__KEEP=9"}); err != nil || !cfg.Audit.Arguments || cfg.Audit.Keep != 9 {
		t.Errorf("from the environment: %+v, %v", cfg.Audit, err)
	}
	for content, want := range map[string]string{
		"[audit]\nargument = true\n":       "audit.argument: unknown key (did you mean arguments?)",
		"keep = 3\n":                       "keep: unknown key (it belongs in [audit])",
		"[audit]\narguments = \"maybe\"\n": "audit.arguments: want true or false",
		"[audit]\nmax_bytes = 100\n":       "audit.max_bytes must be at least 4096",
		"[audit]\ndir = \"logs\"\n":        `audit.dir must be an absolute path, got "logs"`,
		"[audit]\nkeep = -1\n":             "audit.keep must be between 0 and 1000",
		"[audit]\nmax_bytes = \"10MiB\"\n": "audit.max_bytes: want a whole number",
	} {
		_, err := Load(writeConfig(t, "c.toml", content), nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: Load = %v, want %q", content, err, want)
		}
	}
}
