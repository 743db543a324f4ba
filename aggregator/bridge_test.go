package aggregator

import (
	"os"
	"path/filepath"
	"testing"
)

func TestScratch(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.toml")
	os.WriteFile(p, []byte("[servers.\"io.example.remote\"]\nurl = \"https://x\"\n[servers.plain]\ncommand=\"x\"\n"), 0o600)
	cfg, err := LoadConfig(p, nil)
	t.Logf("%+v %v", cfg.Servers, err)
	s, err := cfg.ConfiguredServers(p)
	t.Logf("%+v %v", s, err)
	cfg, err = LoadConfig("", []string{"MCP_CODE_MODE_IMAGE=", "MCP_CODE_MODE_ALLOW=a,b", "MCP_CODE_MODE_LIMITS__DEADLINE=5s"})
	t.Logf("%q %q %v %v", cfg.Image, cfg.Allow, cfg.Limits.Deadline, err)
}
