package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

func TestDigest(t *testing.T) {
	sum := sha256.Sum256(Script)
	if got, want := Digest(), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("Digest() = %s, want %s", got, want)
	}
}
