package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// OAuth is how this program signs in to a remote server that asks for
// OAuth authorization ([servers.NAME.oauth]). The zero value discovers
// everything and registers itself with the authorization server (dynamic
// client registration); each key narrows or replaces one step.
type OAuth struct {
	// ClientID is a client registered with the authorization server
	// beforehand (pre-registration): no registration is attempted.
	ClientID string `koanf:"client_id"`
	// ClientSecretEnv names the host variable holding that client's
	// secret (read when it is needed, never stored).
	ClientSecretEnv string `koanf:"client_secret_env"`
	// PrivateKeyFile is a PEM private key the client authenticates with
	// (private_key_jwt, RFC 7523): a JWT signed with it, instead of a
	// secret.
	PrivateKeyFile string `koanf:"private_key_file"`
	// SigningAlgorithm is the JWS algorithm of that JWT (ES256, RS256,
	// EdDSA, ...); default: the one the key's type implies.
	SigningAlgorithm string `koanf:"signing_algorithm"`
	// ClientMetadataURL is an https URL of a client ID metadata document
	// that describes this program: used as the client ID with an
	// authorization server that accepts such documents.
	ClientMetadataURL string `koanf:"client_metadata_url"`
	// Scopes are the scopes to ask for; default: those the server's
	// challenge names, else all its metadata lists.
	Scopes []string `koanf:"scopes"`
	// Grant is GrantAuthorizationCode (a user signs in, the default) or
	// GrantClientCredentials (the client signs in as itself, no user).
	Grant string `koanf:"grant"`
}

// OAuth grants.
const (
	GrantAuthorizationCode = "authorization_code"
	GrantClientCredentials = "client_credentials"
)

// SigningAlgorithms are the JWS algorithms private_key_jwt can sign with.
var SigningAlgorithms = []string{"ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"}

// IsZero reports whether no key is set.
func (o OAuth) IsZero() bool {
	return o.ClientID == "" && o.ClientSecretEnv == "" && o.PrivateKeyFile == "" && o.SigningAlgorithm == "" &&
		o.ClientMetadataURL == "" && len(o.Scopes) == 0 && o.Grant == ""
}

// GrantOrDefault is Grant, or GrantAuthorizationCode when it is unset.
func (o OAuth) GrantOrDefault() string {
	if o.Grant == "" {
		return GrantAuthorizationCode
	}
	return o.Grant
}

// check says what is wrong with the settings of the server at where, or
// nil.
func (o OAuth) check(where string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: oauth: %s", where, fmt.Sprintf(format, args...))
	}
	switch o.Grant {
	case "", GrantAuthorizationCode:
	case GrantClientCredentials:
		if o.ClientID == "" {
			return bad("grant = %q needs client_id (a client registered with the authorization server)", o.Grant)
		}
		if o.ClientSecretEnv == "" && o.PrivateKeyFile == "" {
			return bad("grant = %q needs client_secret_env or private_key_file to authenticate the client", o.Grant)
		}
	default:
		return bad("grant must be %s or %s, got %q", GrantAuthorizationCode, GrantClientCredentials, o.Grant)
	}
	if (o.ClientSecretEnv != "" || o.PrivateKeyFile != "") && o.ClientID == "" {
		return bad("client_secret_env and private_key_file belong to a pre-registered client: set client_id too")
	}
	if o.ClientSecretEnv != "" && o.PrivateKeyFile != "" {
		return bad("give client_secret_env or private_key_file, not both")
	}
	if o.SigningAlgorithm != "" {
		if o.PrivateKeyFile == "" {
			return bad("signing_algorithm needs private_key_file")
		}
		if !slices.Contains(SigningAlgorithms, o.SigningAlgorithm) {
			return bad("signing_algorithm must be one of %s, got %q", strings.Join(SigningAlgorithms, ", "), o.SigningAlgorithm)
		}
	}
	if o.ClientMetadataURL != "" {
		u, err := url.Parse(o.ClientMetadataURL)
		if err != nil || u.Scheme != "https" || u.Host == "" || u.Path == "" || u.Path == "/" || u.Fragment != "" {
			return bad("client_metadata_url must be an https URL with a path (the client ID metadata document), got %q", o.ClientMetadataURL)
		}
	}
	for _, s := range o.Scopes {
		if s == "" || strings.ContainsAny(s, " \t\r\n\"\\") {
			return bad("scopes: %q is not a scope (one scope per string, no spaces or quotes)", s)
		}
	}
	return nil
}
