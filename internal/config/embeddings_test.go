package config

import (
	"strings"
	"testing"
	"time"
)

// [search.embeddings] is off by default, loads from a file or the
// environment, and takes a plain number of seconds as its timeout.
func TestLoadEmbeddings(t *testing.T) {
	cfg, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := cfg.Search.Embeddings; e.URL != "" || e.Timeout != 2*time.Second || e.MaxResponseBytes != 8<<20 {
		t.Fatalf("default [search.embeddings] = %+v, want off, 2s, 8 MiB", e)
	}

	p := writeConfig(t, "c.toml", `[search.embeddings]
url = "http://localhost:11434"
model = "nomic-embed-text"
api_key_env = "EMBEDDINGS_KEY"
timeout = 5
max_response_bytes = 1048576
`)
	cfg, err = Load(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := EmbeddingsConfig{URL: "http://localhost:11434", Model: "nomic-embed-text", APIKeyEnv: "EMBEDDINGS_KEY", Timeout: 5 * time.Second, MaxResponseBytes: 1 << 20}
	if cfg.Search.Embeddings != want {
		t.Errorf("[search.embeddings] = %+v, want %+v", cfg.Search.Embeddings, want)
	}

	cfg, err = Load("", []string{"MCP_CODE_MODE_SEARCH__EMBEDDINGS__URL=http://127.0.0.1:8080/", "MCP_CODE_MODE_SEARCH__EMBEDDINGS__MODEL=m", "MCP_CODE_MODE_SEARCH__EMBEDDINGS__TIMEOUT=1.5"})
	if err != nil {
		t.Fatal(err)
	}
	if e := cfg.Search.Embeddings; e.URL != "http://127.0.0.1:8080/" || e.Model != "m" || e.Timeout != 1500*time.Millisecond {
		t.Errorf("[search.embeddings] from the environment = %+v", e)
	}
}

// A half-configured or unusable embedding server stops every command with
// the key at fault, rather than leaving search silently lexical. A URL
// holding a password is refused without the password in the message.
func TestLoadEmbeddingsErrors(t *testing.T) {
	tests := []struct {
		name, content string
		want          string
	}{
		{"model without url", "[search.embeddings]\nmodel = \"m\"\n", "need a url"},
		{"key variable without url", "[search.embeddings]\napi_key_env = \"K\"\n", "need a url"},
		{"url without model", "[search.embeddings]\nurl = \"http://localhost:11434\"\n", "search.embeddings.model"},
		{"not http", "[search.embeddings]\nurl = \"unix:///run/x.sock\"\nmodel = \"m\"\n", "search.embeddings.url"},
		{"no host", "[search.embeddings]\nurl = \"http://\"\nmodel = \"m\"\n", "search.embeddings.url"},
		{"credentials in the url", "[search.embeddings]\nurl = \"http://me:hunter2-secret@localhost:11434\"\nmodel = \"m\"\n", "api_key_env"},
		{"query in the url", "[search.embeddings]\nurl = \"http://localhost:11434?key=x\"\nmodel = \"m\"\n", "base address"},
		{"zero timeout", "[search.embeddings]\nurl = \"http://localhost:11434\"\nmodel = \"m\"\ntimeout = 0\n", "search.embeddings.timeout"},
		{"tiny response bound", "[search.embeddings]\nurl = \"http://localhost:11434\"\nmodel = \"m\"\nmax_response_bytes = 100\n", "max_response_bytes"},
		{"misspelled table", "[search.embedings]\nurl = \"http://localhost:11434\"\n", "did you mean embeddings?"},
		{"key instead of its variable", "[search.embeddings]\nurl = \"http://localhost:11434\"\nmodel = \"m\"\napi_key = \"sk-hunter2-secret\"\n", "search.embeddings.api_key: unknown key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(writeConfig(t, "c.toml", tt.content), nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load = %v, want an error saying %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error shows a secret: %v", err)
			}
		})
	}
}
