package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	_ "crypto/sha256" // SHA-256 for crypto.Hash
	_ "crypto/sha512" // SHA-384 and SHA-512
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"time"
)

// clientAssertionType is the client_assertion_type of private_key_jwt
// (RFC 7523 §2.2).
const clientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// parsePrivateKey reads a PEM private key: PKCS #8, or SEC 1 (EC) or
// PKCS #1 (RSA).
func parsePrivateKey(pemBytes []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, fmt.Errorf("no PEM block")
	}
	var key any
	var err error
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("a PEM block of type %q is not a private key", block.Type)
	}
	if err != nil {
		return nil, err
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("unsupported key type %T", key)
	}
	return signer, nil
}

// defaultAlgorithm is the JWS algorithm a key's type implies.
func defaultAlgorithm(key crypto.Signer) string {
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve.Params().BitSize {
		case 384:
			return "ES384"
		case 521:
			return "ES512"
		}
		return "ES256"
	case ed25519.PrivateKey:
		return "EdDSA"
	}
	return "RS256"
}

// signJWT signs claims as a compact JWS with key under alg.
func signJWT(key crypto.Signer, alg string, claims map[string]any) (string, error) {
	header, _ := json.Marshal(map[string]string{"alg": alg, "typ": "JWT"})
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	input := enc.EncodeToString(header) + "." + enc.EncodeToString(payload)
	sig, err := jwsSign(key, alg, []byte(input))
	if err != nil {
		return "", err
	}
	return input + "." + enc.EncodeToString(sig), nil
}

func jwsSign(key crypto.Signer, alg string, input []byte) ([]byte, error) {
	hashOf := func(h crypto.Hash) []byte {
		w := h.New()
		w.Write(input)
		return w.Sum(nil)
	}
	hashes := map[string]crypto.Hash{"256": crypto.SHA256, "384": crypto.SHA384, "512": crypto.SHA512}
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		want := map[string]int{"ES256": 256, "ES384": 384, "ES512": 521}[alg]
		if want == 0 || k.Curve.Params().BitSize != want {
			return nil, fmt.Errorf("an EC key on %s cannot sign %s", k.Curve.Params().Name, alg)
		}
		h := hashes[alg[2:]]
		r, s, err := ecdsa.Sign(rand.Reader, k, hashOf(h))
		if err != nil {
			return nil, err
		}
		size := (want + 7) / 8
		sig := make([]byte, 2*size)
		r.FillBytes(sig[:size])
		s.FillBytes(sig[size:])
		return sig, nil
	case *rsa.PrivateKey:
		if len(alg) != 5 || (alg[:2] != "RS" && alg[:2] != "PS") {
			return nil, fmt.Errorf("an RSA key cannot sign %s", alg)
		}
		h := hashes[alg[2:]]
		if alg[:2] == "PS" {
			return rsa.SignPSS(rand.Reader, k, h, hashOf(h), &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
		}
		return rsa.SignPKCS1v15(rand.Reader, k, h, hashOf(h))
	case ed25519.PrivateKey:
		if alg != "EdDSA" {
			return nil, fmt.Errorf("an Ed25519 key cannot sign %s", alg)
		}
		return ed25519.Sign(k, input), nil
	}
	return nil, fmt.Errorf("unsupported key type %T", key)
}

// clientAssertion is the JWT with which a client authenticates with
// private_key_jwt (RFC 7523 §3): issued by and about the client, for the
// authorization server (its issuer identifier), valid for a minute.
func clientAssertion(key crypto.Signer, alg, clientID, audience string, now time.Time) (string, error) {
	if alg == "" {
		alg = defaultAlgorithm(key)
	}
	jti := make([]byte, 16)
	if _, err := rand.Read(jti); err != nil {
		return "", err
	}
	return signJWT(key, alg, map[string]any{
		"iss": clientID, "sub": clientID, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(time.Minute).Unix(),
		"jti": base64.RawURLEncoding.EncodeToString(jti),
	})
}
