package config

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/state"
)

func writeConfig(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadConfigDefaults(t *testing.T) {
	for _, environ := range [][]string{nil, {}, {"PATH=/bin", "HOME=/root", "MCP_CODE_MODEX=1", "mcp_code_mode_image=lower"}} {
		cfg, err := Load("", environ)
		if err != nil {
			t.Fatalf("Load(\"\", %q) = %v", environ, err)
		}
		if want := Default(); !reflect.DeepEqual(cfg, want) {
			t.Errorf("Load(\"\", %q) = %+v\nwant Default() = %+v", environ, cfg, want)
		}
	}
}

const tomlConfig = `
image = "example/sandbox:1"
allow = ["fs", "gh.read_*"]
deny = ["gh.delete_*"]
env = ["GITHUB_TOKEN"]

[limits]
deadline = "30s"
max_calls = 7

[servers.fs]
command = "npx"
args = ["-y", "@mcp/fs", "/tmp"]
description = "Files under /tmp"
allow = ["read_*"]
deny = ["write_*"]
cwd = "/srv"

[servers.fs.env]
TOKEN = "t0k"
Mixed_Case = "v"

[servers.remote]
url = "https://mcp.example.com/sse"
type = "sse"

[servers."io.example.remote"]
url = "https://example.com/mcp"
disabled = true

[servers.api]
url = "https://api.example.com/mcp"

[servers.api.headers]
Authorization = "Bearer x"
`

const yamlConfig = `
image: example/sandbox:1
allow: [fs, gh.read_*]
deny: [gh.delete_*]
env: [GITHUB_TOKEN]
limits:
  deadline: 30s
  max_calls: 7
servers:
  fs:
    command: npx
    args: ["-y", "@mcp/fs", "/tmp"]
    description: Files under /tmp
    allow: [read_*]
    deny: [write_*]
    cwd: /srv
    env:
      TOKEN: t0k
      Mixed_Case: v
  remote:
    url: https://mcp.example.com/sse
    type: sse
  io.example.remote:
    url: https://example.com/mcp
    disabled: true
  api:
    url: https://api.example.com/mcp
    headers:
      Authorization: Bearer x
`

const jsonConfig = `{
  "image": "example/sandbox:1",
  "allow": ["fs", "gh.read_*"],
  "deny": ["gh.delete_*"],
  "env": ["GITHUB_TOKEN"],
  "limits": {"deadline": "30s", "max_calls": 7},
  "servers": {
    "fs": {
      "command": "npx", "args": ["-y", "@mcp/fs", "/tmp"], "description": "Files under /tmp",
      "allow": ["read_*"], "deny": ["write_*"], "cwd": "/srv",
      "env": {"TOKEN": "t0k", "Mixed_Case": "v"}
    },
    "remote": {"url": "https://mcp.example.com/sse", "type": "sse"},
    "io.example.remote": {"url": "https://example.com/mcp", "disabled": true},
    "api": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer x"}}
  }
}`

// checkLoaded checks the config every one of the files above describes.
func checkLoaded(t *testing.T, cfg Config) {
	t.Helper()
	if cfg.Image != "example/sandbox:1" {
		t.Errorf("Image = %q, want example/sandbox:1", cfg.Image)
	}
	if cfg.Limits.Deadline != 30*time.Second {
		t.Errorf("Limits.Deadline = %v, want 30s", cfg.Limits.Deadline)
	}
	if cfg.Limits.MaxCalls != 7 {
		t.Errorf("Limits.MaxCalls = %d, want 7", cfg.Limits.MaxCalls)
	}
	// Unset limits keep their defaults.
	def := DefaultLimits()
	if cfg.Limits.CallTimeout != def.CallTimeout || cfg.Limits.MaxArgBytes != def.MaxArgBytes || cfg.Limits.MemoryBytes != def.MemoryBytes {
		t.Errorf("unset limits changed: call_timeout %v, max_arg_bytes %d, memory_bytes %d; want the defaults %v, %d, %d",
			cfg.Limits.CallTimeout, cfg.Limits.MaxArgBytes, cfg.Limits.MemoryBytes, def.CallTimeout, def.MaxArgBytes, def.MemoryBytes)
	}
	if !slices.Equal(cfg.Allow, []string{"fs", "gh.read_*"}) || !slices.Equal(cfg.Deny, []string{"gh.delete_*"}) || !slices.Equal(cfg.Env, []string{"GITHUB_TOKEN"}) {
		t.Errorf("Allow, Deny, Env = %q, %q, %q", cfg.Allow, cfg.Deny, cfg.Env)
	}
	want := map[string]ServerConfig{
		"fs": {
			Command: "npx", Args: []string{"-y", "@mcp/fs", "/tmp"}, Description: "Files under /tmp",
			Allow: []string{"read_*"}, Deny: []string{"write_*"}, Cwd: "/srv",
			Env: map[string]string{"TOKEN": "t0k", "Mixed_Case": "v"},
		},
		"remote":            {URL: "https://mcp.example.com/sse", Type: "sse"},
		"io.example.remote": {URL: "https://example.com/mcp", Disabled: new(true)},
		"api":               {URL: "https://api.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer x"}},
	}
	if got, w := slices.Sorted(maps.Keys(cfg.Servers)), slices.Sorted(maps.Keys(want)); !slices.Equal(got, w) {
		t.Fatalf("server names = %q, want %q", got, w)
	}
	for name, w := range want {
		g := cfg.Servers[name]
		if g.Command != w.Command || !slices.Equal(g.Args, w.Args) || g.Description != w.Description ||
			!slices.Equal(g.Allow, w.Allow) || !slices.Equal(g.Deny, w.Deny) || g.Cwd != w.Cwd ||
			g.URL != w.URL || g.Type != w.Type || (g.Disabled == nil) != (w.Disabled == nil) || g.Disabled != nil && *g.Disabled != *w.Disabled ||
			!maps.Equal(g.Env, w.Env) || !maps.Equal(g.Headers, w.Headers) {
			t.Errorf("server %q = %+v\nwant %+v", name, g, w)
		}
	}
}

func TestLoadConfigFormats(t *testing.T) {
	for _, tt := range []struct{ name, file, content string }{
		{"toml", "c.toml", tomlConfig},
		{"yaml", "c.yaml", yamlConfig},
		{"yml", "c.yml", yamlConfig},
		{"json", "c.json", jsonConfig},
		{"upper-case extension", "C.TOML", tomlConfig},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := writeConfig(t, tt.file, tt.content)
			cfg, err := Load(p, nil)
			if err != nil {
				t.Fatalf("Load(%s) = %v", tt.file, err)
			}
			checkLoaded(t, cfg)

			servers, err := cfg.Merge(p, nil)
			if err != nil {
				t.Fatalf("Merge (config file only) = %v", err)
			}
			byName := map[string]Server{}
			for _, s := range servers {
				byName[s.Name] = s
			}
			for name, transport := range map[string]string{
				"fs": TransportStdio, "remote": TransportSSE,
				"io.example.remote": TransportHTTP, "api": TransportHTTP,
			} {
				s, ok := byName[name]
				if !ok {
					t.Errorf("server %q missing from Merge (config file only); got %d servers", name, len(servers))
					continue
				}
				if s.Transport != transport {
					t.Errorf("server %q transport = %q, want %q", name, s.Transport, transport)
				}
				if want := p + "#servers." + name; s.Source != want {
					t.Errorf("server %q source = %q, want %q", name, s.Source, want)
				}
			}
			if s := byName["io.example.remote"]; !s.Disabled || s.Why == "" {
				t.Errorf("server io.example.remote: Disabled=%v Why=%q, want disabled with a reason", s.Disabled, s.Why)
			}
		})
	}
}

func TestLoadConfigEnvironment(t *testing.T) {
	// The file sets none of the keys the variables set, so these hold
	// whichever of the two wins.
	p := writeConfig(t, "c.toml", "[servers.fs]\ncommand = \"npx\"\n\n[limits]\ncall_timeout = \"7s\"\n")
	tests := []struct {
		name    string
		environ []string
		check   func(t *testing.T, cfg Config)
	}{
		{"image and max_calls", []string{"MCP_CODE_MODE_IMAGE=env/image:2", "MCP_CODE_MODE_LIMITS__MAX_CALLS=50"}, func(t *testing.T, cfg Config) {
			if cfg.Image != "env/image:2" || cfg.Limits.MaxCalls != 50 {
				t.Errorf("Image, MaxCalls = %q, %d; want env/image:2, 50", cfg.Image, cfg.Limits.MaxCalls)
			}
			if cfg.Limits.CallTimeout != 7*time.Second || cfg.Servers["fs"].Command != "npx" {
				t.Errorf("CallTimeout %v, server fs %+v: the file's keys were lost", cfg.Limits.CallTimeout, cfg.Servers["fs"])
			}
		}},
		{"deadline", []string{"MCP_CODE_MODE_LIMITS__DEADLINE=2m"}, func(t *testing.T, cfg Config) {
			if cfg.Limits.Deadline != 2*time.Minute {
				t.Errorf("Deadline = %v, want 2m", cfg.Limits.Deadline)
			}
		}},
		{"allow list", []string{"MCP_CODE_MODE_ALLOW=a,b"}, func(t *testing.T, cfg Config) {
			if !slices.Equal(cfg.Allow, []string{"a", "b"}) {
				t.Errorf("Allow = %q, want [a b]", cfg.Allow)
			}
		}},
		{"deny and env lists with spaces", []string{"MCP_CODE_MODE_DENY=x.y, z", "MCP_CODE_MODE_ENV=A B,,C"}, func(t *testing.T, cfg Config) {
			if !slices.Equal(cfg.Deny, []string{"x.y", "z"}) || !slices.Equal(cfg.Env, []string{"A", "B", "C"}) {
				t.Errorf("Deny, Env = %q, %q; want [x.y z], [A B C]", cfg.Deny, cfg.Env)
			}
		}},
		{"no_discovery", []string{"MCP_CODE_MODE_NO_DISCOVERY=true"}, func(t *testing.T, cfg Config) {
			if !cfg.NoDiscovery {
				t.Error("NoDiscovery = false, want true")
			}
		}},
		{"later duplicate wins", []string{"MCP_CODE_MODE_IMAGE=first", "MCP_CODE_MODE_IMAGE=second"}, func(t *testing.T, cfg Config) {
			if cfg.Image != "second" {
				t.Errorf("Image = %q, want second", cfg.Image)
			}
		}},
		{"unrelated variables ignored", []string{"IMAGE=no", "MCP_CODE_MODEIMAGE=no", "PATH=/bin"}, func(t *testing.T, cfg Config) {
			if cfg.Image != Default().Image {
				t.Errorf("Image = %q, want the default %q", cfg.Image, Default().Image)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Load(p, tt.environ)
			if err != nil {
				t.Fatalf("Load(%s, %q) = %v", p, tt.environ, err)
			}
			tt.check(t, cfg)
		})
	}
}

// README: "Flags override the config file, which overrides MCP_CODE_MODE_*
// variables, which override the defaults." (The doc comment of Config still
// says the environment overrides the file.)
func TestLoadConfigFileOverridesEnvironment(t *testing.T) {
	p := writeConfig(t, "c.toml", tomlConfig)
	environ := []string{"MCP_CODE_MODE_IMAGE=env/image:2", "MCP_CODE_MODE_LIMITS__MAX_CALLS=50",
		"MCP_CODE_MODE_ALLOW=a,b", "MCP_CODE_MODE_LIMITS__CALL_TIMEOUT=9s"}
	cfg, err := Load(p, environ)
	if err != nil {
		t.Fatalf("LoadConfig = %v", err)
	}
	if cfg.Image != "example/sandbox:1" || cfg.Limits.MaxCalls != 7 || !slices.Equal(cfg.Allow, []string{"fs", "gh.read_*"}) {
		t.Errorf("Image, MaxCalls, Allow = %q, %d, %q; want the file's example/sandbox:1, 7, [fs gh.read_*]", cfg.Image, cfg.Limits.MaxCalls, cfg.Allow)
	}
	if cfg.Limits.CallTimeout != 9*time.Second {
		t.Errorf("CallTimeout = %v, want 9s from the environment (the file does not set it)", cfg.Limits.CallTimeout)
	}
	// Where each policy key was set, for the messages that name a rule.
	if cfg.AllowFrom != p || cfg.DenyFrom != p || cfg.DefaultPolicyFrom != "" {
		t.Errorf("AllowFrom, DenyFrom, DefaultPolicyFrom = %q, %q, %q; want the file for both lists (it overrides the environment) and \"\" (the default)", cfg.AllowFrom, cfg.DenyFrom, cfg.DefaultPolicyFrom)
	}
	cfg, err = Load("", []string{"MCP_CODE_MODE_DENY=x.y", "MCP_CODE_MODE_DEFAULT_POLICY=deny"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.AllowFrom != "" || cfg.DenyFrom != "MCP_CODE_MODE_DENY" || cfg.DefaultPolicyFrom != "MCP_CODE_MODE_DEFAULT_POLICY" {
		t.Errorf("from the environment: AllowFrom, DenyFrom, DefaultPolicyFrom = %q, %q, %q", cfg.AllowFrom, cfg.DenyFrom, cfg.DefaultPolicyFrom)
	}
}

func TestLoadConfigDurations(t *testing.T) {
	tests := []struct {
		name, content string
		environ       []string
		want          time.Duration
	}{
		{"go duration", "[limits]\ndeadline = \"1m30s\"\n", nil, 90 * time.Second},
		{"bare integer is seconds", "[limits]\ndeadline = 30\n", nil, 30 * time.Second},
		{"bare float is seconds", "[limits]\ndeadline = 1.5\n", nil, 1500 * time.Millisecond},
		{"numeric string is seconds", "[limits]\ndeadline = \"45\"\n", nil, 45 * time.Second},
		{"yaml-style duration in environment", "", []string{"MCP_CODE_MODE_LIMITS__DEADLINE=2m"}, 2 * time.Minute},
		{"bare number in environment", "", []string{"MCP_CODE_MODE_LIMITS__DEADLINE=12"}, 12 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeConfig(t, "c.toml", tt.content)
			cfg, err := Load(p, tt.environ)
			if err != nil {
				t.Fatalf("LoadConfig = %v", err)
			}
			if cfg.Limits.Deadline != tt.want {
				t.Errorf("Deadline = %v, want %v", cfg.Limits.Deadline, tt.want)
			}
		})
	}
}

func TestLoadConfigErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name    string
		file    string // created with content unless content is "-"
		content string
		environ []string
		want    []string // substrings of the error; "$PATH" is the file's path
	}{
		{"unknown extension", "c.ini", "image = x", nil, []string{"$PATH", "unknown format"}},
		{"no extension", "config", "image = x", nil, []string{"$PATH", "unknown format"}},
		{"missing file", "missing.toml", "-", nil, []string{"$PATH"}},
		{"malformed toml", "bad.toml", "image = \n[limits", nil, []string{"$PATH"}},
		{"malformed yaml", "bad.yaml", "image: [unclosed\n  - x: y: z", nil, []string{"$PATH"}},
		{"malformed json", "bad.json", `{"image": `, nil, []string{"$PATH"}},
		{"negative deadline", "neg.toml", "[limits]\ndeadline = \"-5s\"\n", nil, []string{"limits.deadline"}},
		{"zero call timeout", "ct.toml", "[limits]\ncall_timeout = \"0s\"\n", nil, []string{"limits.call_timeout"}},
		{"negative max_calls", "mc.toml", "[limits]\nmax_calls = -1\n", nil, []string{"limits.max_calls"}},
		{"max_error_chars 5", "mec.toml", "[limits]\nmax_error_chars = 5\n", nil, []string{"limits.max_error_chars", "5"}},
		{"max_error_chars 5 from environment", "", "", []string{"MCP_CODE_MODE_LIMITS__MAX_ERROR_CHARS=5"}, []string{"limits.max_error_chars"}},
		{"negative deadline from environment", "", "", []string{"MCP_CODE_MODE_LIMITS__DEADLINE=-1s"}, []string{"limits.deadline"}},
		{"bad duration", "dur.toml", "[limits]\ndeadline = \"soon\"\n", nil, []string{"deadline"}},
		{"tiny memory", "mem.toml", "[limits]\nmemory_bytes = 1024\n", nil, []string{"memory_bytes"}},
		{"zero output size", "out.json", `{"limits":{"max_output_bytes":0}}`, nil, []string{"sizes"}},
		{"max_calls not a number from environment", "", "", []string{"MCP_CODE_MODE_LIMITS__MAX_CALLS=many"}, []string{"max_calls"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ""
			if tt.file != "" {
				p = filepath.Join(dir, tt.file)
				if tt.content != "-" {
					if err := os.WriteFile(p, []byte(tt.content), 0o600); err != nil {
						t.Fatal(err)
					}
				}
			}
			cfg, err := Load(p, tt.environ)
			if err == nil {
				t.Fatalf("Load(%q, %q) = %+v, want an error", p, tt.environ, cfg)
			}
			for _, w := range tt.want {
				if w == "$PATH" {
					w = p
				}
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestMergeConfigFileOnly(t *testing.T) {
	const src = "/etc/mcm.toml"
	tests := []struct {
		name    string
		servers map[string]ServerConfig
		want    []Server // compared on the fields set here
		wantErr []string
	}{
		{"none", nil, nil, nil},
		{"command is stdio", map[string]ServerConfig{"fs": {Command: "npx", Args: []string{"a"}, Env: map[string]string{"K": "v"}, Cwd: "/w", Description: "d", Allow: []string{"r*"}, Deny: []string{"w*"}}},
			[]Server{{Name: "fs", Transport: "stdio", Command: "npx", Args: []string{"a"}, Env: map[string]string{"K": "v"}, Cwd: "/w", Description: "d", Allow: []string{"r*"}, Deny: []string{"w*"}, Source: src + "#servers.fs", PolicyFrom: "[servers.fs] in " + src}}, nil},
		{"url is http", map[string]ServerConfig{"r": {URL: "https://x/mcp", Headers: map[string]string{"A": "b"}}},
			[]Server{{Name: "r", Transport: "http", URL: "https://x/mcp", Headers: map[string]string{"A": "b"}, Source: src + "#servers.r"}}, nil},
		{"type sse", map[string]ServerConfig{"r": {URL: "https://x/sse", Type: "sse"}},
			[]Server{{Name: "r", Transport: "sse", URL: "https://x/sse", Source: src + "#servers.r"}}, nil},
		{"type SSE upper case", map[string]ServerConfig{"r": {URL: "https://x/sse", Type: "SSE"}},
			[]Server{{Name: "r", Transport: "sse", URL: "https://x/sse", Source: src + "#servers.r"}}, nil},
		{"type streamable-http", map[string]ServerConfig{"r": {URL: "https://x", Type: "streamable-http"}},
			[]Server{{Name: "r", Transport: "http", URL: "https://x", Source: src + "#servers.r"}}, nil},
		{"type stdio explicit", map[string]ServerConfig{"s": {Command: "x", Type: "stdio"}},
			[]Server{{Name: "s", Transport: "stdio", Command: "x", Source: src + "#servers.s"}}, nil},
		{"command and url prefer url", map[string]ServerConfig{"s": {Command: "x", URL: "https://x"}},
			[]Server{{Name: "s", Transport: "http", Command: "x", URL: "https://x", Source: src + "#servers.s"}}, nil},
		{"sorted by name", map[string]ServerConfig{"b": {Command: "x"}, "a": {Command: "y"}, "c.d": {URL: "https://z"}},
			[]Server{{Name: "a", Transport: "stdio", Command: "y", Source: src + "#servers.a"}, {Name: "b", Transport: "stdio", Command: "x", Source: src + "#servers.b"}, {Name: "c.d", Transport: "http", URL: "https://z", Source: src + "#servers.c.d"}}, nil},
		{"disabled carries why", map[string]ServerConfig{"off": {Command: "x", Disabled: new(true)}},
			[]Server{{Name: "off", Transport: "stdio", Command: "x", Disabled: true, Why: "disabled in " + src, Source: src + "#servers.off"}}, nil},

		{"missing command", map[string]ServerConfig{"empty": {Description: "nothing"}}, nil, []string{`"empty"`, src + "#servers.empty", "command"}},
		{"stdio type with url only", map[string]ServerConfig{"s": {Type: "stdio", URL: "https://x"}}, nil, []string{`"s"`, src, "command"}},
		{"http type without url", map[string]ServerConfig{"h": {Type: "http", Command: "x"}}, nil, []string{`"h"`, src + "#servers.h", "url"}},
		{"sse type without url", map[string]ServerConfig{"h": {Type: "sse"}}, nil, []string{`"h"`, src, "sse server needs a url"}},
		{"unknown type", map[string]ServerConfig{"w": {Type: "websocket", URL: "ws://x"}}, nil, []string{`"w"`, src, `"websocket"`}},
		{"disabled still checked", map[string]ServerConfig{"off": {Disabled: new(true)}}, nil, []string{`"off"`, "command"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Default()
			cfg.Servers = tt.servers
			got, err := cfg.Merge(src, nil)
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("Merge (config file only) = %+v, want an error", got)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not mention %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Merge (config file only) = %v", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("Merge (config file only) gave %d servers, want %d: %+v", len(got), len(tt.want), got)
			}
			for i := range got {
				if !reflect.DeepEqual(got[i], tt.want[i]) {
					t.Errorf("server %d = %+v\nwant %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// An empty image from the environment, or a negative connect timeout or
// idle time, passes validation and makes every run fail later, far from the
// cause.
func TestLoadConfigRejectsUnusableValues(t *testing.T) {
	tests := []struct {
		name, content string
		environ       []string
	}{
		{"empty image from environment", "", []string{"MCP_CODE_MODE_IMAGE="}},
		{"empty image in file", "image = \"\"\n", nil},
		{"negative connect_timeout", "[limits]\nconnect_timeout = \"-1s\"\n", nil},
		{"negative server_idle", "[limits]\nserver_idle = -5\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeConfig(t, "c.toml", tt.content)
			if cfg, err := Load(p, tt.environ); err == nil {
				t.Errorf("LoadConfig = image %q, connect_timeout %v, server_idle %v; want an error", cfg.Image, cfg.Limits.ConnectTimeout, cfg.Limits.ServerIdle)
			}
		})
	}
}

func TestMergeAppliesTheConfigFileOnTopOfDiscovery(t *testing.T) {
	discovered := []Server{
		{Name: "github", Transport: "stdio", Command: "npx", Args: []string{"gh"}, Source: "claude.json#mcpServers.github"},
		{Name: "fs", Transport: "stdio", Command: "npx", Args: []string{"fs"}, Source: "cursor.json#mcpServers.fs"},
		{Name: "noise", Transport: "stdio", Command: "x", Source: "cursor.json#mcpServers.noise"},
	}
	cfg := Default()
	cfg.Discovery.Exclude = []string{"noise"}
	cfg.Servers = map[string]ServerConfig{
		"github": {Deny: []string{"delete_*"}, ReadOnly: true, Description: "code hosting"}, // policy only
		"fs":     {Command: "my-fs", Args: []string{"/data"}},                               // replaces
		"extra":  {URL: "https://example.com/mcp"},                                          // adds
	}
	got, err := cfg.Merge("cfg.toml", discovered)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range got {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"extra", "fs", "github"}) {
		t.Fatalf("servers %v, want extra, fs, github (noise excluded)", names)
	}
	gh := got[2]
	if gh.Command != "npx" || !slices.Equal(gh.Deny, []string{"delete_*"}) || !gh.ReadOnly || gh.Description != "code hosting" || gh.Source != "claude.json#mcpServers.github" || gh.PolicyFrom != "[servers.github] in cfg.toml" {
		t.Fatalf("github with policy overlay: %+v", gh)
	}
	if fs := got[1]; fs.Command != "my-fs" || fs.Source != "cfg.toml#servers.fs" {
		t.Fatalf("fs replaced: %+v", fs)
	}
	cfg.Servers = map[string]ServerConfig{"ghost": {Deny: []string{"x"}}}
	if _, err := cfg.Merge("cfg.toml", discovered); err == nil || !strings.Contains(err.Error(), `"ghost"`) {
		t.Fatalf("a policy entry for no server: %v", err)
	}
}

// Its own config file, when it is a FIFO or too large, is refused at once
// with the reason; a plain open would block on the FIFO.
func TestLoadRefusesAFIFOAndAnOversizedFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "config.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte("# "+strings.Repeat("x", maxFileBytes)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{fifo: "not a regular file (a FIFO)", big: "file too large"} {
		done := make(chan error, 1)
		go func() { _, err := Load(path, nil); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
				t.Errorf("Load(%s) = %v, want an error naming the file and %q", path, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Load(%s) blocked", path)
		}
	}
}

// A project's server never takes a name the user's own config gives: it is
// renamed, and the user's entry and its policy are the user's server.
func TestMergeRenamesAProjectServerWhoseNameTheConfigTakes(t *testing.T) {
	c := Default()
	c.Servers = map[string]ServerConfig{
		"github":   {Command: "github-mcp", Deny: []string{"delete_*"}},
		"github@x": {Command: "other"},
	}
	discovered := []Server{
		{Name: "github", Transport: TransportStdio, Command: "evil", Client: "x", Project: "/repo", Untrusted: true, Disabled: true},
	}
	out, err := c.Merge("config.toml", discovered)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Server{}
	for _, s := range out {
		byName[s.Name] = s
	}
	if s := byName["github"]; s.Command != "github-mcp" || s.Project != "" || len(s.Deny) != 1 {
		t.Errorf("github: want the config's server with its deny list, got %+v", s)
	}
	if s := byName["github@x-2"]; s.Command != "evil" || !s.Untrusted {
		t.Errorf("github@x-2: want the project's server renamed past the taken github@x, got %+v (all: %v)", s, out)
	}
	if len(out) != 3 {
		t.Errorf("got %d servers, want 3: %+v", len(out), out)
	}
}

// The [state] table: the store's defaults, its keys set from the file and
// the environment, a misspelled key named, and limits that would not let a
// value under them travel on one protocol line refused.
func TestStateTable(t *testing.T) {
	def := Default().State
	if def.Limits() != state.DefaultLimits() {
		t.Errorf("the default limits of [state] are %+v, not the store's %+v", def.Limits(), state.DefaultLimits())
	}
	if want, _ := state.DefaultPath(); def.Path != want || def.Namespace != "" {
		t.Errorf("default path %q namespace %q, want %q and none", def.Path, def.Namespace, want)
	}
	p := writeConfig(t, "c.toml", "[state]\npath = \"/tmp/x/state.db\"\nnamespace = \"team\"\nmax_keys = 5\n")
	cfg, err := Load(p, []string{"MCP_CODE_MODE_STATE__MAX_TOOLS=7"})
	if err != nil {
		t.Fatal(err)
	}
	if s := cfg.State; s.Path != "/tmp/x/state.db" || s.Namespace != "team" || s.MaxKeys != 5 || s.MaxTools != 7 || s.MaxValueBytes != def.MaxValueBytes {
		t.Errorf("[state] loaded as %+v", s)
	}
	for content, want := range map[string]string{
		"[state]\nmax_values_bytes = 1\n":        "state.max_values_bytes: unknown key (did you mean max_value_bytes?)",
		"[state]\nmax_keys = 0\n":                "the limits of [state] must all be positive",
		"[state]\nmax_value_bytes = 250000\n":    "state.max_value_bytes + state.max_metadata_bytes + 6 x state.max_name_bytes must be at most 258048",
		"[state]\nmax_tool_source_bytes = 1e6\n": "state.max_tool_source_bytes + state.max_tool_description_bytes",
		"[state]\nnamespace = \" x\"\n":          "state.namespace: invalid namespace",
	} {
		_, err := Load(writeConfig(t, "c.toml", content), nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", content, err, want)
		}
	}
}
