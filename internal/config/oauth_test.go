package config

import (
	"strings"
	"testing"
)

// [servers.NAME.oauth] is read and checked: a remote server's settings
// reach its Server (on an entry of its own and on one that changes a
// discovered server), and settings that cannot work, a misspelled key or
// oauth on a stdio server stop the load with the key and the reason.
func TestOAuthSettingsAreChecked(t *testing.T) {
	good := `[servers.notion]
url = "https://mcp.example.com/mcp"
[servers.notion.oauth]
client_id = "abc"
client_secret_env = "NOTION_SECRET"
scopes = ["read", "write"]
`
	cfg, err := Load(writeConfig(t, "c.toml", good), nil)
	if err != nil {
		t.Fatal(err)
	}
	list, err := cfg.Merge("c.toml", []Server{{Name: "linear", Transport: TransportHTTP, URL: "https://l.example/mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	if o := list[1].OAuth; list[1].Name != "notion" || o.ClientID != "abc" || o.ClientSecretEnv != "NOTION_SECRET" || strings.Join(o.Scopes, " ") != "read write" || o.GrantOrDefault() != GrantAuthorizationCode {
		t.Errorf("notion's OAuth: %+v", list[1])
	}
	t.Setenv("NOTION_SECRET", "the-client-secret-value")
	if s := strings.Join(list[1].Secrets(), " "); !strings.Contains(s, "the-client-secret-value") {
		t.Errorf("the client secret is not among the secrets: %q", s)
	}
	over, err := Load(writeConfig(t, "d.toml", "[servers.linear.oauth]\ngrant = \"client_credentials\"\nclient_id = \"m\"\nprivate_key_file = \"/k.pem\"\nsigning_algorithm = \"ES256\"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	list, err = over.Merge("d.toml", []Server{{Name: "linear", Transport: TransportHTTP, URL: "https://l.example/mcp"}})
	if err != nil || list[0].OAuth.Grant != GrantClientCredentials || list[0].OAuth.SigningAlgorithm != "ES256" {
		t.Fatalf("a discovered server's oauth: %v %+v", err, list)
	}

	for _, tc := range []struct{ body, want string }{
		{"[servers.x]\nurl = \"https://x/mcp\"\n[servers.x.oauth]\nclient-id = \"a\"\n", "servers.x.oauth.client-id: unknown key (did you mean client_id?)"},
		{"[servers.x]\nurl = \"https://x/mcp\"\n[servers.x.oauth]\ngrant = \"password\"\n", `grant must be authorization_code or client_credentials, got "password"`},
		{"[servers.x]\nurl = \"https://x/mcp\"\n[servers.x.oauth]\ngrant = \"client_credentials\"\n", "needs client_id"},
		{"[servers.x]\nurl = \"https://x/mcp\"\n[servers.x.oauth]\ngrant = \"client_credentials\"\nclient_id = \"a\"\n", "needs client_secret_env or private_key_file"},
		{"[servers.x]\nurl = \"https://x/mcp\"\n[servers.x.oauth]\nclient_secret_env = \"S\"\n", "set client_id too"},
		{"[servers.x]\nurl = \"https://x/mcp\"\n[servers.x.oauth]\nclient_id = \"a\"\nprivate_key_file = \"k\"\nsigning_algorithm = \"HS256\"\n", "signing_algorithm must be one of"},
		{"[servers.x]\nurl = \"https://x/mcp\"\n[servers.x.oauth]\nclient_metadata_url = \"http://x/client.json\"\n", "client_metadata_url must be an https URL with a path"},
		{"[servers.x]\nurl = \"https://x/mcp\"\n[servers.x.oauth]\nscopes = [\"read write\"]\n", `"read write" is not a scope`},
		{"[servers.x]\ncommand = \"x\"\n[servers.x.oauth]\nclient_id = \"a\"\n", "oauth applies to remote servers"},
	} {
		cfg, err := Load(writeConfig(t, "e.toml", tc.body), nil)
		if err == nil {
			_, err = cfg.Merge("e.toml", nil)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s\n=> %v\nwant %q", tc.body, err, tc.want)
		}
	}
}
