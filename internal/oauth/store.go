package oauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/config"
	"github.com/mcp-code-mode/mcp-code-mode/internal/safefile"
)

// Record is one sign-in: the tokens a server's authorization server issued
// for it, and what is needed to refresh them. It is kept in a file of its
// own, readable by the user alone, named after the server's URL, the
// resource and the issuer; never after the server's configured name, so a
// token is only ever sent to the server it was issued for.
type Record struct {
	ServerURL             string    `json:"server_url"`         // the server's URL, canonical
	Resource              string    `json:"resource,omitempty"` // the resource indicator tokens were asked for ("" for a 2025-03-26 server)
	Issuer                string    `json:"issuer"`
	AuthorizationEndpoint string    `json:"authorization_endpoint,omitempty"`
	TokenEndpoint         string    `json:"token_endpoint"`
	RevocationEndpoint    string    `json:"revocation_endpoint,omitempty"`
	Grant                 string    `json:"grant"`
	ClientID              string    `json:"client_id"`
	Registration          string    `json:"registration"`            // how the client got its ID: pre-registered, metadata document or dynamic
	ClientSecret          string    `json:"client_secret,omitempty"` // a secret dynamic registration issued (never a configured one)
	AuthMethod            string    `json:"token_endpoint_auth_method"`
	RedirectURI           string    `json:"redirect_uri,omitempty"`
	AccessToken           string    `json:"access_token"`
	RefreshToken          string    `json:"refresh_token,omitempty"`
	ExpiresAt             time.Time `json:"expires_at,omitzero"`
	Scopes                []string  `json:"scopes,omitempty"`
	// Wanted are scopes the server asked for during a run, which the next
	// login asks for.
	Wanted   []string  `json:"wanted_scopes,omitempty"`
	SignedIn time.Time `json:"signed_in"`
}

// Secrets are the record's secret values, for redaction.
func (r *Record) Secrets() []string {
	var out []string
	for _, v := range []string{r.AccessToken, r.RefreshToken, r.ClientSecret} {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// Registrations of a client.
const (
	preRegistered    = "pre-registered"
	metadataDocument = "metadata document"
	dynamic          = "dynamic"
)

// Store keeps sign-ins in Dir, one file per server, each readable by the
// user alone (0600, in a 0700 folder). The zero Store (Dir "") keeps
// nothing.
type Store struct{ Dir string }

// Limits on what the store reads.
const (
	maxRecordBytes = 1 << 20
	maxRecords     = 10000
)

// fileName names the file of a record: a hash of the server's URL, the
// resource and the issuer.
func fileName(r *Record) string {
	h := sha256.Sum256([]byte(r.ServerURL + "\n" + r.Resource + "\n" + r.Issuer))
	return hex.EncodeToString(h[:16]) + ".json"
}

// Canonical is a server URL as records name it: scheme and host in lower
// case, without a fragment.
func Canonical(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Scheme, u.Host, u.Fragment, u.RawFragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), "", ""
	return u.String()
}

// Save writes r, replacing the server's other records (of an earlier
// issuer or resource): the new contents go to a temporary file that then
// takes the record's name.
func (s Store) Save(r *Record) error {
	if s.Dir == "" {
		return nil
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	_ = os.Chmod(s.Dir, 0o700)
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(s.Dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	tmp := f.Name()
	err = f.Chmod(0o600)
	if err == nil {
		_, err = f.Write(append(b, '\n'))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(s.Dir, fileName(r)))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("token store: %w", err)
	}
	others, _ := s.all(r.ServerURL)
	for _, o := range others {
		if o.name != fileName(r) {
			os.Remove(filepath.Join(s.Dir, o.name))
		}
	}
	return nil
}

type stored struct {
	name string
	rec  *Record
}

// all reads the records of the server at serverURL (every server's when
// it is "").
func (s Store) all(serverURL string) ([]stored, error) {
	if s.Dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("token store: %w", err)
	}
	want := Canonical(serverURL)
	var out []stored
	for i, e := range entries {
		if i >= maxRecords {
			break
		}
		if !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(s.Dir, e.Name())
		b, err := safefile.Read(p, maxRecordBytes)
		if err != nil {
			continue
		}
		var r Record
		if json.Unmarshal(b, &r) != nil || r.AccessToken == "" {
			continue
		}
		if serverURL != "" && r.ServerURL != want {
			continue
		}
		if info, err := os.Stat(p); err == nil && info.Mode().Perm()&0o077 != 0 {
			_ = os.Chmod(p, 0o600) // another tool widened it
		}
		out = append(out, stored{e.Name(), &r})
	}
	return out, nil
}

// Find returns the newest record of the server at serverURL, nil when
// there is none.
func (s Store) Find(serverURL string) (*Record, error) {
	all, err := s.all(serverURL)
	var best *Record
	for _, st := range all {
		if best == nil || st.rec.SignedIn.After(best.SignedIn) {
			best = st.rec
		}
	}
	return best, err
}

// Delete removes the records of the server at serverURL and returns them.
func (s Store) Delete(serverURL string) ([]*Record, error) {
	all, err := s.all(serverURL)
	if err != nil {
		return nil, err
	}
	var out []*Record
	for _, st := range all {
		if err := os.Remove(filepath.Join(s.Dir, st.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return out, fmt.Errorf("token store: %w", err)
		}
		out = append(out, st.rec)
	}
	return out, nil
}

// Secrets are the secret values of every record of the server at
// serverURL, for redaction.
func (s Store) Secrets(serverURL string) []string {
	all, _ := s.all(serverURL)
	var out []string
	for _, st := range all {
		out = append(out, st.rec.Secrets()...)
	}
	return out
}

// Status says, without any network use, whether the server at serverURL is
// signed in: "signed in (...)" with the token's expiry, or "not signed in"
// (for the client credentials grant: it signs in when used).
func (s Store) Status(serverURL string, set config.OAuth) string {
	rec, _ := s.Find(serverURL)
	if rec == nil || set.ClientID != "" && rec.ClientID != set.ClientID {
		if set.GrantOrDefault() == config.GrantClientCredentials {
			return "not signed in (client credentials: signs in when used)"
		}
		return "not signed in"
	}
	return "signed in (" + rec.Describe() + ")"
}

// Describe says when the record's token expires and what renews it.
func (rec *Record) Describe() string {
	var parts []string
	switch left := time.Until(rec.ExpiresAt); {
	case rec.ExpiresAt.IsZero():
		parts = append(parts, "no expiry")
	case left > time.Hour:
		parts = append(parts, "expires in "+left.Round(time.Minute).String())
	case left > 0:
		parts = append(parts, "expires in "+left.Round(time.Second).String())
	case rec.RefreshToken != "" || rec.Grant == config.GrantClientCredentials:
		parts = append(parts, "expired, renewed when used")
	default:
		parts = append(parts, "expired: login again")
	}
	if rec.RefreshToken != "" {
		parts = append(parts, "refreshable")
	}
	if len(rec.Wanted) > 0 {
		parts = append(parts, "login again to grant "+strings.Join(rec.Wanted, " "))
	}
	return strings.Join(parts, ", ")
}
