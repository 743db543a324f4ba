package config

import (
	"slices"
	"testing"
)

func TestSecretsAreTheValuesThatMayBeSecret(t *testing.T) {
	t.Setenv("MCM_TEST_BEARER", "bear")
	t.Setenv("MCM_TEST_ORG", "org-42")
	s := Server{
		Env: map[string]string{
			"API_TOKEN":    "tok1",                              // short, but named secret
			"LOG_LEVEL":    "info",                              // short and plain: not a secret
			"REGION":       "eu-west-1b",                        // 8 characters or more count whatever the name
			"DATABASE_URL": "postgres://app:pw-db-77@db:5432/x", // the whole value, and its password
		},
		Headers:        map[string]string{"Authorization": "Bearer hdr-9", "Accept": "json"},
		URL:            "https://u:upw1@mcp.example/mcp?api_key=k%2Byz&format=json&tenant=contoso-prod",
		Args:           []string{"--api-key", "ak-1", "--token=tk-2", "-e", "GITHUB_TOKEN=gh-3", "--dir", "/srv", "postgresql://u:argpw@h/db"},
		BearerTokenEnv: "MCM_TEST_BEARER",
		EnvHeaders:     map[string]string{"X-Org": "MCM_TEST_ORG"},
	}
	got := s.Secrets()
	for _, want := range []string{"tok1", "eu-west-1b", "postgres://app:pw-db-77@db:5432/x", "pw-db-77", "Bearer hdr-9", "hdr-9",
		"upw1", "k+yz", "k%2Byz", "contoso-prod", "ak-1", "tk-2", "gh-3", "argpw", "bear", "org-42"} {
		if !slices.Contains(got, want) {
			t.Errorf("Secrets lacks %q: %q", want, got)
		}
	}
	for _, plain := range []string{"info", "json", "/srv", "-e", "--dir"} {
		if slices.Contains(got, plain) {
			t.Errorf("Secrets holds %q, which is not secret: %q", plain, got)
		}
	}
	if got := (Server{Env: map[string]string{"K": "abc"}}).Secrets(); len(got) != 0 {
		t.Errorf("a value under 4 characters counts: %q", got)
	}
}
